// The game page: the board and the turn builder, the players and clocks, the move list
// with navigation, the actions, over the game's WebSocket (connection.ts). The server is
// the referee: a move shows on the board only as the server's, or as pending (made while
// the connection is down, or sent and not yet answered) until the server takes or
// refuses it.
import type { Key } from 'chessgroundx/types';
import { analysisLink } from '../analysis/link';
import { Board } from '../board';
import { Connection } from '../connection';
import { DecodeError } from '../decode';
import { app, h, message } from '../dom';
import { LocalRules, loadRules, sameTurns } from '../local-rules';
import { applyPart, applyTurn, unitsFromFen } from '../position';
import { problemLink, setupConditions } from '../problems/link';
import type { Units } from '../position';
import { serverMsg } from '../protocol';
import type { ClientMsg, MoveMsg, PlayedTurn, Side, StateMsg, Turn, VariantDescriptor } from '../protocol';
import * as sounds from '../sounds';
import { TurnBuilder } from '../turns';
import { pieceName, variants, variantTitle } from '../variants';

function fmtClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const other = (s: Side): Side => (s === 'white' ? 'black' : 'white');
const sideLabel = (s: Side) => (s === 'white' ? 'White' : 'Black');

/** A move made and not yet taken by the server. */
type Pending = { ply: number; turn: Turn; sent: boolean };

/** The played turns laid out by move number and side (several moves a turn possible). */
export function byTurn(moves: PlayedTurn[]): { number: number; white: number[]; black: number[] }[] {
  const rows: { number: number; white: number[]; black: number[] }[] = [];
  moves.forEach((m, i) => {
    let row = rows[rows.length - 1];
    if (!row || row.number !== m.number) { row = { number: m.number, white: [], black: [] }; rows.push(row); }
    row[m.side].push(i);
  });
  return rows;
}

class GamePage {
  st: StateMsg | null = null;
  /** Every variant's descriptor (piece names...), once fetched. */
  descriptors: VariantDescriptor[] = [];
  /** The descriptors were asked for and answered (or failed). */
  descriptorsRead = false;
  you: Side | null = null;
  /** The ply shown; null: the live position. */
  viewPly: number | null = null;
  orientation: Side = 'white';
  builder = new TurnBuilder();
  pending: Pending | null = null;
  conn: Connection;
  clockBase = 0;
  redirected = false;
  board: Board | null = null;
  notFound = false;
  /** The rules in the browser (WebAssembly), once loaded: they give the turns offered. */
  rules = new LocalRules();
  rulesReady = false;

  boardBox = h('div', { class: 'board-col' });
  connection = h('div', { class: 'connection hidden', id: 'connection', role: 'status' });
  topPlayer = h('div', { class: 'player' });
  bottomPlayer = h('div', { class: 'player' });
  status = h('div', { class: 'status', id: 'status' });
  notice = h('div', { class: 'notice hidden', id: 'notice', role: 'alert' });
  /** The notice says a button's message was not sent (cleared when the connection is back). */
  unsent = false;
  parts = h('div', { class: 'parts hidden', id: 'parts' });
  moves = h('div', { class: 'moves', id: 'moves', tabindex: '0' });
  actions = h('div', { id: 'actions' });
  nav = h('div', { class: 'nav' });
  err = h('div', { class: 'error', id: 'error' });
  info = h('div', { class: 'legend', id: 'info' });
  watchers = h('span', { class: 'legend', id: 'watchers' });
  soundBtn = h('button', { id: 'sound', class: 'small' });
  loading = h('div', { class: 'panel', id: 'loading', text: 'Connecting…' });

  constructor(readonly id: string) {
    app.append(this.loading);
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    this.conn = new Connection(`${proto}://${location.host}/ws/${id}`, {
      up: () => {
        document.body.dataset.connected = '1';
        if (this.unsent) { this.unsent = false; this.showNotice(''); }
        this.renderConnection();
      },
      down: () => { document.body.dataset.connected = '0'; if (this.pending) this.pending.sent = false; this.renderConnection(); this.render(); },
      message: raw => this.onMessage(raw),
    });
    setInterval(() => this.tick(), 200);
    variants()
      .then(list => { this.descriptors = list; })
      .catch(() => { /* pieces stay letters, none checkered */ })
      .finally(() => { this.descriptorsRead = true; this.render(); });
    loadRules().then(ok => {
      this.rulesReady = ok;
      // Offered from now on by the rules here (a turn half entered is left as it is).
      if (ok && this.st && this.builder.prefix.length === 0) { this.builder.reset(this.offered(this.st)); this.render(); }
    });
  }

  get variant(): VariantDescriptor | undefined {
    return this.descriptors.find(v => v.name === this.st?.variant);
  }

  /** The page's frame, made once the game is known. */
  layout() {
    this.loading.remove();
    this.boardBox.append(this.topPlayer);
    const boardSlot = h('div', {});
    this.boardBox.append(boardSlot, this.bottomPlayer);
    app.append(h('div', { class: 'game' }, h('div', {}, this.connection, this.boardBox),
      h('div', { class: 'side-col' }, this.info, this.status, this.notice, this.parts, this.err, this.nav, this.moves, this.actions,
        h('div', { class: 'settings' }, this.soundBtn, ' ', this.watchers))));
    this.navButtons();
    this.soundBtn.onclick = () => { sounds.setMuted(!sounds.muted()); this.renderSound(); };
    this.renderSound();
    return boardSlot;
  }

  renderSound() {
    const off = sounds.muted();
    this.soundBtn.textContent = off ? 'Sound: off' : 'Sound: on';
    this.soundBtn.setAttribute('aria-pressed', off ? 'false' : 'true');
  }

  renderConnection() {
    const up = this.conn.isUp;
    this.connection.classList.toggle('hidden', up);
    this.connection.textContent = up ? '' : 'Reconnecting…';
  }

  send(m: ClientMsg): boolean {
    return this.conn.send(m);
  }

  /** The FEN of the position shown: the live one or the one after the move selected. */
  shownFen(st: StateMsg): string {
    return this.viewPly === null ? st.fen : this.viewPly === 0 ? st.start_fen : st.moves[this.viewPly - 1].fen;
  }

  /** The shown position as a person copies it (standard FEN for chess, from the server). */
  copyFen(st: StateMsg): string {
    if (this.viewPly === null) return st.copy_fen;
    if (this.viewPly === 0) return st.start_fen;
    return st.moves[this.viewPly - 1].copy_fen;
  }

  myTurn(): boolean {
    const st = this.st;
    return !!st && st.status === 'playing' && this.you === st.side;
  }

  canMove(): boolean {
    return this.myTurn() && this.viewPly === null && !this.pending;
  }

  unitsAt(st: StateMsg, ply: number): Units {
    const u = unitsFromFen(this.variant?.pieces ?? [], st.start_fen);
    for (let i = 0; i < ply; i++) applyTurn(u, st.moves[i].canonical);
    return u;
  }

  // ---------- entering a turn ----------

  choose(title: string, options: { label: string; value: string; picture?: HTMLElement }[], done: (v: string | null) => void) {
    const box = h('div', { class: 'choice', id: 'choice' });
    const inner = h('div', { class: 'choice-box' }, h('p', { text: title }));
    for (const o of options) {
      const b = h('button', { 'data-part': o.value, title: o.label, 'aria-label': o.label, class: o.picture ? 'pick' : '' });
      if (o.picture) b.append(o.picture, h('span', { text: o.label }));
      else b.textContent = o.label;
      b.onclick = () => { box.remove(); done(o.value); };
      inner.append(b);
    }
    const cancel = h('button', { text: 'Cancel', id: 'choice-cancel' });
    cancel.onclick = () => { box.remove(); done(null); };
    inner.append(h('div', {}, cancel));
    box.append(inner);
    document.body.append(box);
  }

  sendTurn() {
    const st = this.st;
    if (!st) return;
    const turn = this.builder.candidates().find(t => t.uci === this.builder.turn());
    this.builder.reset();
    this.board?.clearOffers();
    if (!turn) { this.render(); return; }
    this.pending = { ply: st.ply, turn, sent: false };
    this.flushPending();
    this.render();
  }

  /** Sends the pending move when connected and not sent yet. */
  flushPending() {
    const p = this.pending;
    if (!p || p.sent) return;
    if (this.send({ t: 'move', ply: p.ply, turn: p.turn.uci })) p.sent = true;
  }

  takePart(part: string) {
    this.board?.clearOffers();
    const r = this.builder.take(part);
    if (r === 'illegal') return;
    if (r === 'complete') { this.sendTurn(); return; }
    this.render();
  }

  /** The units after the parts chosen so far (and `extra`) of the turn being entered. */
  unitsWithParts(st: StateMsg, upto: number, turn: Turn | undefined): Units {
    const units = this.unitsAt(st, st.moves.length);
    if (turn) turn.canonical.split(' ; ').slice(0, upto).forEach(p => applyPart(units, p));
    return units;
  }

  /** A piece picture as the board draws it (for the promotion chooser). */
  picture(colour: 'w' | 'b' | 'c', letter: string): HTMLElement {
    const role = (colour === 'c' ? 'p' : '') + letter + '-piece';
    const piece = document.createElement('piece');
    piece.className = `${role} ${colour === 'b' ? 'black' : 'white'}`;
    return h('span', { class: 'cg-wrap picture' }, piece);
  }

  onBoardMove(orig: Key, dest: Key) {
    if (!this.canMove()) { this.render(); return; }
    const options = this.builder.partsBetween(orig, dest);
    if (options.length === 0) { this.render(); return; }
    if (options.length === 1) { this.takePart(options[0]); return; }
    this.askBetween(options);
  }

  /** Several parts share the squares moved: promotion, a kind, a landing or rebirth square. */
  askBetween(options: string[]) {
    const st = this.st;
    if (!st) return;
    const n = this.builder.prefix.length;
    const info = options.map(p => {
      const t = this.builder.turnWith(p);
      const units = this.unitsWithParts(st, n + 1, t);
      const part = t?.shape.parts[n];
      const to = part && part.kind === 'move' ? part.to : p.slice(2, 4);
      return { part: p, turn: t, unit: units.get(to), appears: t?.shape.appears ?? [] };
    });
    // Differing only by where a unit appears: choose the square on the board.
    const onSquare = info.filter(i => i.appears.length === 1);
    const none = info.filter(i => i.appears.length === 0);
    if (onSquare.length >= 2 && onSquare.length + none.length === info.length && new Set(onSquare.map(i => i.appears[0])).size === onSquare.length) {
      this.offerOnBoard(onSquare.map(i => ({ key: i.appears[0], part: i.part })), none.map(i => i.part));
      return;
    }
    // Differing by the unit that stands on the destination: a chooser with its pictures.
    const kinds = info.map(i => (i.unit ? i.unit.colour + i.unit.letter : ''));
    if (info.every(i => i.unit) && new Set(kinds).size === info.length) {
      const rank = (letter: string) => {
        const name = pieceName(this.variant, letter);
        // Queen first (by the server's piece names; by its FEN letter when it gives none).
        if (name === 'queen' || (!this.variant && letter === "q")) return -1;
        const idx = this.variant?.pieces.findIndex(p => p.letter === letter) ?? -1;
        return 100 - idx;
      };
      const sorted = [...info].sort((a, b) => rank(a.unit!.letter) - rank(b.unit!.letter));
      this.choose('Choose the piece:', sorted.map(i => {
        const u = i.unit!;
        const name = (u.colour === 'c' ? 'checkered ' : '') + pieceName(this.variant, u.letter);
        return { label: name, value: i.part, picture: this.picture(u.colour, u.letter) };
      }), v => { if (v) this.takePart(v); else this.render(); });
      return;
    }
    // Otherwise the server's words for each turn.
    this.choose('Choose:', info.map(i => ({ label: i.turn?.shape.label ?? 'this move', value: i.part })),
      v => { if (v) this.takePart(v); else this.render(); });
  }

  /** Squares to choose on the board (a rebirth square...): the board shows the turn so far;
   * `without`: the same move with nothing appearing (a button). */
  offerOnBoard(squares: { key: string; part: string }[], without: string[]) {
    const st = this.st;
    const board = this.board;
    if (!st || !board) return;
    const first = this.builder.turnWith(squares[0].part);
    const units = this.unitsWithParts(st, this.builder.prefix.length, first);
    for (const s of squares) units.delete(s.key);
    board.show(units);
    board.offerSquares(squares.map(s => ({ key: s.key, label: `choose ${s.key}` })), key => {
      const s = squares.find(x => x.key === key);
      if (s) this.takePart(s.part);
    });
    this.parts.classList.remove('hidden');
    this.parts.replaceChildren(h('div', { id: 'choose-square', text: 'Choose on the board where the captured unit comes back: tap one of the marked squares.' }));
    for (const part of without) {
      const b = h('button', { text: 'It does not come back', 'data-part': part });
      b.onclick = () => this.takePart(part);
      this.parts.append(b);
    }
    const cancel = h('button', { text: 'Cancel', id: 'cancel-turn' });
    cancel.onclick = () => { board.clearOffers(); this.render(); };
    this.parts.append(cancel);
  }

  /** A square was touched: going back live, or offering the way off the board. */
  onSelect(key: Key) {
    if (this.viewPly !== null && this.myTurn()) { this.go(null); return; }
    const board = this.board;
    if (!board || !this.canMove()) return;
    const exit = this.builder.next().next.find(p => p === key + '--');
    if (exit) board.offerEdges(key, `move the piece on ${key} off the board`, () => this.takePart(exit));
    else board.clearOffers();
  }

  onDropOff(orig: Key) {
    if (!this.canMove()) return;
    const exit = this.builder.next().next.find(p => p === orig + '--');
    if (exit) this.takePart(exit);
  }

  /** A part in words (from the turn's shape). */
  partWords(turn: Turn, i: number, units: Units): string {
    const part = turn.shape.parts[i];
    if (!part) return turn.notation;
    const name = (sq: string) => { const u = units.get(sq); return u ? (u.colour === 'c' ? 'checkered ' : '') + pieceName(this.variant, u.letter) : 'piece'; };
    switch (part.kind) {
      case 'move': return `${name(part.from)} ${part.from}–${part.to}`;
      case 'exit': return `${name(part.from)} ${part.from} off the board`;
      case 'act': return `${name(part.from)} on ${part.from} takes on ${part.target}`;
      case 'empty': return part.switch ? 'switch' : 'pass';
    }
  }

  renderParts(st: StateMsg) {
    const parts = this.parts;
    parts.replaceChildren();
    if (!this.canMove()) { parts.classList.add('hidden'); return; }
    const prefix = this.builder.prefix;
    const { next, complete } = this.builder.next();
    const special = next.filter(p => p === '0000');
    if (!prefix.length && !special.length) { parts.classList.add('hidden'); return; }
    parts.classList.remove('hidden');
    if (prefix.length) {
      const t = this.builder.candidates()[0];
      const units = this.unitsAt(st, st.moves.length);
      const words: string[] = [];
      if (t) t.canonical.split(' ; ').slice(0, prefix.length).forEach((p, i) => { words.push(this.partWords(t, i, units)); applyPart(units, p); });
      const switched = t?.shape.parts.slice(0, prefix.length).some(p => p.kind === 'empty' && p.switch);
      parts.append(h('div', { id: 'turn-so-far', text: `Your turn so far: ${words.join(', ')}.` }));
      if (switched) parts.append(h('div', { id: 'switched', class: 'strong', text: 'You switched: from now on you move only the checkered pieces. Move a checkered piece.' }));
      parts.append(h('div', { text: complete ? 'You may end the turn here or go on.' : 'Enter the next part on the board.' }));
    }
    for (const p of special) {
      const t = this.builder.turnWith(p);
      const sw = t?.shape.parts[prefix.length];
      const isSwitch = sw ? sw.kind === 'empty' && sw.switch : false;
      const label = isSwitch ? 'Switch (then move a checkered piece)' : 'Pass (end the turn)';
      const b = h('button', { text: label, 'data-part': p });
      b.onclick = () => this.takePart(p);
      parts.append(b);
    }
    if (complete && next.length) {
      const b = h('button', { class: 'primary', text: 'End turn here', id: 'end-turn' });
      b.onclick = () => this.sendTurn();
      parts.append(b);
    }
    if (prefix.length) {
      const b = h('button', { text: 'Cancel this turn', id: 'cancel-turn' });
      b.onclick = () => { this.builder.reset(); this.board?.clearOffers(); this.render(); };
      parts.append(b);
    }
  }

  // ---------- the rest of the page ----------

  renderMoves(st: StateMsg) {
    const moves = this.moves;
    moves.replaceChildren();
    const cur = this.viewPly === null ? st.moves.length : this.viewPly;
    const cell = (plies: number[]) => {
      const c = h('div', { class: 'cell' });
      for (const i of plies) {
        const m = st.moves[i];
        const e = h('span', { class: 'mv' + (i + 1 === cur ? ' current' : ''), text: m.notation, 'data-ply': String(i + 1) });
        e.onclick = () => this.go(i + 1);
        c.append(e);
      }
      if (!plies.length) c.append(h('span', { class: 'empty', text: '…' }));
      return c;
    };
    for (const row of byTurn(st.moves)) {
      moves.append(h('div', { class: 'turn-row', 'data-number': String(row.number) },
        h('span', { class: 'num', text: `${row.number}.` }), cell(row.white), cell(row.black)));
    }
    // Keep the current move in view inside the list (never scrolling the page itself).
    const current = moves.querySelector<HTMLElement>('.current');
    if (current) {
      const top = current.offsetTop, bottom = top + current.offsetHeight;
      if (top < moves.scrollTop) moves.scrollTop = top;
      else if (bottom > moves.scrollTop + moves.clientHeight) moves.scrollTop = bottom - moves.clientHeight;
    }
  }

  playerBox(st: StateMsg, side: Side, el: HTMLElement) {
    const p = st.players[side];
    const name = p ? p.name : '(open seat)';
    const clock = h('span', { class: 'clock', id: `clock-${side}` });
    el.dataset.side = side;
    el.replaceChildren(h('span', { class: 'name' + (p && (p.online || p.bot) ? ' online' : ''), text: `${side === 'white' ? '○' : '●'} ${name}${this.you === side ? ' (you)' : ''}` }), st.clock ? clock : '');
  }

  tick() {
    const st = this.st;
    if (!st || !st.clock) return;
    for (const side of ['white', 'black'] as const) {
      const el = document.getElementById(`clock-${side}`);
      if (!el) continue;
      let ms = side === 'white' ? st.clock.white_ms : st.clock.black_ms;
      const running = st.clock.running === side && st.status === 'playing';
      if (running) ms -= Date.now() - this.clockBase;
      el.textContent = fmtClock(ms);
      el.className = 'clock' + (running ? ' running' : '') + (ms < 10000 ? ' low' : '');
    }
  }

  statusText(st: StateMsg): string {
    const p = this.pending;
    if (p) {
      return this.conn.isUp
        ? `Sending your move ${p.turn.notation}…`
        : `Your move ${p.turn.notation} is pending: it will be sent when the connection is back.`;
    }
    if (this.viewPly !== null) return `Viewing move ${this.viewPly} of ${st.moves.length} (End: back to the game)`;
    if (st.status === 'waiting') return 'Waiting for an opponent.';
    if (st.status === 'aborted') return st.result_text || `Aborted (${st.reason}).`;
    if (st.status === 'finished') return st.result_text || `${st.result} — ${st.reason}`;
    const side = sideLabel(st.side);
    return this.you === st.side ? `Your turn (${side}).` : `${side} to move.`;
  }

  renderActions(st: StateMsg) {
    const actions = this.actions;
    const you = this.you;
    actions.replaceChildren();
    const btn = (text: string, id: string, m: ClientMsg | (() => void), primary = false) => {
      const b = h('button', { text, id, class: primary ? 'primary' : '' });
      b.onclick = () => { if (typeof m === 'function') m(); else this.act(m); };
      actions.append(b);
    };
    if (st.status === 'waiting' && you) {
      actions.append(h('div', {}, 'Send this link to your opponent: ', h('span', { class: 'link', id: 'invite', text: location.href })));
    }
    if (st.rematch && you) actions.append(h('a', { href: '/game/' + st.rematch, id: 'rematch-link', text: 'Go to the rematch' }));
    // The server says which actions apply now; the switch is exhaustive over them.
    const resign = () => { if (confirm('Resign this game?')) this.act({ t: 'resign' }); };
    for (const a of st.actions) {
      switch (a) {
        case 'join': btn('Join this game', 'join', { t: 'join' }, true); break;
        case 'resign': btn('Resign', 'resign', resign); break;
        case 'abort': btn(st.status === 'waiting' ? 'Cancel game' : 'Abort', 'abort', { t: 'abort' }); break;
        case 'offer-draw': btn('Offer draw', 'draw', { t: 'draw', action: 'offer' }); break;
        case 'accept-draw': btn('Accept draw', 'draw-accept', { t: 'draw', action: 'accept' }, true); break;
        case 'decline-draw': btn('Decline draw', 'draw-decline', { t: 'draw', action: 'decline' }); break;
        case 'withdraw-draw': btn('Draw offered (withdraw)', 'draw-withdraw', { t: 'draw', action: 'decline' }); break;
        case 'ask-takeback': btn('Ask takeback', 'takeback', { t: 'takeback', action: 'offer' }); break;
        case 'accept-takeback': btn('Accept takeback', 'takeback-accept', { t: 'takeback', action: 'accept' }, true); break;
        case 'decline-takeback': btn('Decline takeback', 'takeback-decline', { t: 'takeback', action: 'decline' }); break;
        case 'withdraw-takeback': btn('Takeback asked (withdraw)', 'takeback-withdraw', { t: 'takeback', action: 'decline' }); break;
        case 'offer-rematch': btn('Rematch', 'rematch', { t: 'rematch', action: 'offer' }); break;
        case 'accept-rematch': btn('Accept rematch', 'rematch-accept', { t: 'rematch', action: 'accept' }, true); break;
        case 'decline-rematch': btn('Decline rematch', 'rematch-decline', { t: 'rematch', action: 'decline' }); break;
        case 'withdraw-rematch': btn('Rematch offered (withdraw)', 'rematch-withdraw', { t: 'rematch', action: 'decline' }); break;
        default: { const unknown: never = a; throw new Error(`no button for ${unknown}`); }
      }
    }
    actions.append(h('br'));
    btn('Flip board', 'flip', () => this.flip());
    btn('Analyse', 'analyse', () => {
      const ply = this.viewPly === null ? st.moves.length : this.viewPly;
      location.href = analysisLink(st, ply);
    });
    // The position shown (any ply), with the game's conditions, on the problems page.
    const asProblem = problemLink(this.variant, this.shownFen(st), setupConditions(st.setup));
    if (asProblem) btn('Set up as problem', 'as-problem', () => { location.href = asProblem; });
    btn('Copy FEN', 'copy-fen', () => { const fen = this.copyFen(st); navigator.clipboard?.writeText(fen).catch(() => {}); this.err.textContent = ''; this.info.textContent = 'FEN: ' + fen; });
    const a = h('a', { href: `/api/games/${this.id}/pgn`, id: 'pgn', download: `chimere-${this.id}.pgn`, text: 'Download PGN' });
    actions.append(' ', a);
  }

  flip() {
    this.orientation = other(this.orientation);
    this.board?.clearOffers();
    this.render();
  }

  ensureBoard(st: StateMsg): Board {
    if (this.board) return this.board;
    const slot = this.layout();
    this.orientation = this.you ?? 'white';
    this.board = new Board(slot, this.variant?.pieces ?? [], st.start_fen, {
      move: (o, d) => this.onBoardMove(o, d),
      select: k => this.onSelect(k),
      dropOff: o => this.onDropOff(o),
    }, { orientation: this.orientation });
    return this.board;
  }

  render() {
    const st = this.st;
    // The board is drawn once the variant's descriptor (its pieces) is known.
    if (!st || !this.descriptorsRead) return;
    const board = this.ensureBoard(st);
    const cg = board.cg;
    const ply = this.viewPly === null ? st.moves.length : this.viewPly;
    const units = this.unitsAt(st, ply);
    const prefix = this.builder.prefix;
    const pending = this.pending;
    let last = ply > 0 ? this.lastSquares(st.moves[ply - 1]) : [];
    if (this.viewPly === null && pending && pending.ply === st.ply) {
      applyTurn(units, pending.turn.canonical);
      last = this.lastSquares(pending.turn);
    } else if (this.viewPly === null && prefix.length) {
      const t = this.builder.candidates()[0];
      if (t) t.canonical.split(' ; ').slice(0, prefix.length).forEach(p => applyPart(units, p));
    }
    board.orientation = this.orientation;
    board.show(units);
    const playing = st.status === 'playing' && this.you !== null && this.viewPly === null;
    const mine = this.canMove();
    cg.set({
      orientation: this.orientation,
      turnColor: st.side,
      lastMove: last,
      check: this.viewPly === null && st.check,
      movable: { color: mine ? 'both' : playing && !pending ? (this.you ?? undefined) : undefined, dests: mine ? this.builder.dests() : new Map() },
      premovable: { enabled: playing && !mine && !pending },
    });
    board.wrap.classList.toggle('pending', !!pending);
    const data = document.body.dataset;
    data.ply = String(st.ply);
    data.status = st.status;
    data.side = st.side;
    data.you = this.you ?? '';
    data.prefix = prefix.join(',');
    data.pending = pending ? pending.turn.uci : '';
    data.view = this.viewPly === null ? 'live' : String(this.viewPly);
    const title = variantTitle(st.variant, this.variant);
    this.info.textContent = `${title}${st.describe ? ' (' + st.describe + ')' : ''}${st.clock ? ` · ${st.clock.initial_ms / 60000} min + ${st.clock.increment_ms / 1000} s` : ' · no clock'}`;
    this.watchers.textContent = `${st.watchers} watching`;
    this.playerBox(st, other(this.orientation), this.topPlayer);
    this.playerBox(st, this.orientation, this.bottomPlayer);
    this.status.textContent = this.statusText(st);
    this.renderParts(st);
    this.renderMoves(st);
    this.renderActions(st);
    this.renderConnection();
    this.tick();
  }

  /** The squares of a turn's last-move highlight: every part's real squares. */
  lastSquares(t: { shape: Turn['shape'] }): Key[] {
    const out: Key[] = [];
    for (const p of t.shape.parts) {
      if (p.kind === 'move') out.push(p.from as Key, p.to as Key);
      else if (p.kind === 'exit') out.push(p.from as Key);
      else if (p.kind === 'act') out.push(p.from as Key, p.target as Key);
    }
    return [...new Set(out)];
  }

  /** Shows the position after ply `p` (null or the last ply: live). */
  go(p: number | null) {
    const st = this.st;
    if (!st) return;
    if (p !== null) p = Math.max(0, Math.min(st.moves.length, p));
    this.viewPly = p === st.moves.length ? null : p;
    this.board?.clearOffers();
    this.render();
  }

  cur(): number {
    return this.viewPly === null ? (this.st?.moves.length ?? 0) : this.viewPly;
  }

  navButtons() {
    const navBtn = (label: string, id: string, title: string, f: () => void) => { const b = h('button', { text: label, id, title, 'aria-label': title }); b.onclick = f; this.nav.append(b); };
    navBtn('|<', 'first', 'first position', () => this.go(0));
    navBtn('<', 'prev', 'previous move', () => this.go(this.cur() - 1));
    navBtn('>', 'next', 'next move', () => this.go(this.cur() + 1));
    navBtn('>|', 'last', 'the game now', () => this.go(null));
    document.addEventListener('keydown', e => {
      if (!this.st || (e.target instanceof HTMLElement && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA'))) return;
      if (e.key === 'ArrowLeft') this.go(this.cur() - 1);
      else if (e.key === 'ArrowRight') this.go(this.cur() + 1);
      else if (e.key === 'Home') this.go(0);
      else if (e.key === 'End') this.go(null);
      else if (e.key === 'Escape') { this.builder.reset(); this.board?.clearOffers(); this.render(); }
      else if (e.key === 'f') this.flip();
      else return;
      e.preventDefault();
    });
  }

  /** Sends a button's message; while the connection is down it is not sent, and the
   *  person is told so rather than left waiting. */
  act(m: ClientMsg) {
    if (this.send(m)) return;
    this.unsent = true;
    this.showNotice('Not connected: that was not sent. Try again once the game is back (reconnecting…).');
  }

  showNotice(text: string) {
    this.notice.textContent = text;
    this.notice.classList.toggle('hidden', !text);
  }

  /** The pending move was not played: back to the server's position, with the reason. */
  refusePending(reason: string) {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.showNotice(`Your move ${p.turn.notation} was not played: ${reason}. The board shows the game as the server has it.`);
  }

  onState(m: StateMsg) {
    const before = this.st;
    const prevYou = this.you;
    if (m.you !== null || before === null || m.id !== before.id) this.you = m.you ?? this.you;
    // The player who takes a seat sees the board from that side.
    if (this.you && this.you !== prevYou) this.orientation = this.you;
    if (before && before.status === 'playing' && (m.status === 'finished' || m.status === 'aborted')) sounds.play('end');
    if (before && m.moves.length > before.moves.length) this.viewPly = null;
    // A broadcast state is written for no one: a seated player's actions are those of its side.
    if (this.you && m.actions_by_side) m.actions = m.actions_by_side[this.you];
    this.st = m;
    this.clockBase = Date.now();
    this.builder.reset(this.offered(m));
    this.err.textContent = '';
    const p = this.pending;
    if (p) {
      if (m.ply > p.ply) {
        // The server has moved on: was it our move?
        if (m.moves[p.ply]?.uci === p.turn.uci) this.pending = null;
        else this.refusePending('the game went on without it');
      } else if (m.ply === p.ply && m.status === 'playing' && m.side === this.you) {
        this.flushPending();
      } else {
        this.refusePending(m.status === 'playing' ? 'it is not your turn' : 'the game is over');
      }
    }
    if (m.rematch && !this.redirected && this.you && sessionStorage.getItem('rematch-seen-' + m.id) !== '1') {
      sessionStorage.setItem('rematch-seen-' + m.id, '1');
      this.redirected = true;
      location.href = '/game/' + m.rematch;
      return;
    }
    this.render();
  }

  /** The turns the board offers: those of the rules in the browser, or the server's list
   *  until they have loaded (and should the two ever disagree: said on the console). */
  offered(st: StateMsg): Turn[] {
    if (!this.rulesReady || st.status !== 'playing') return st.legal;
    const local = this.rules.legal({ variant: st.variant, options: st.setup, startFen: st.start_fen, moves: st.moves.map(m => m.uci) });
    if (local && sameTurns(local, st.legal)) {
      document.body.dataset.legalFrom = 'browser';
      return local;
    }
    console.error(`legal turns differ from the server's at ply ${st.ply} of ${st.variant}: ${local ? local.length : 'none'} here, ${st.legal.length} there`);
    document.body.dataset.legalFrom = 'server';
    return st.legal;
  }

  onMove(m: MoveMsg) {
    const st = this.st;
    if (!st || m.ply !== st.ply + 1) { this.send({ t: 'sync' }); return; }
    const before = this.unitsAt(st, st.moves.length).size;
    st.moves.push(m.move);
    st.ply = m.ply; st.fen = m.fen; st.copy_fen = m.move.copy_fen; st.side = m.side; st.legal = m.legal; st.clock = m.clock;
    st.check = m.check;
    st.actions_by_side = m.actions_by_side;
    if (this.you) st.actions = m.actions_by_side[this.you];
    this.clockBase = Date.now();
    this.builder.reset(this.offered(st));
    this.err.textContent = '';
    const p = this.pending;
    if (p && m.ply === p.ply + 1) {
      if (m.move.uci === p.turn.uci) this.pending = null;
      else this.refusePending('the game went on without it');
    }
    // A new move brings the board back to the game now.
    this.viewPly = null;
    const captured = m.move.shape ? m.move.shape.captures.length > 0 : this.unitsAt(st, st.moves.length).size < before;
    sounds.play(m.check ? 'check' : captured ? 'capture' : 'move');
    this.render();
    if (this.canMove() && this.board?.cg.state.premovable.current) this.board.cg.playPremove();
  }

  onError(code: string, text: string) {
    if (code === 'unknown-game' && !this.st) { this.showNotFound(); return; }
    if (this.pending && this.pending.sent) {
      this.refusePending(text);
      this.builder.reset();
      this.render();
      return;
    }
    this.err.textContent = text;
    this.builder.reset();
    this.render();
  }

  showNotFound() {
    this.notFound = true;
    this.conn.stop();
    notFoundPage(`There is no game “${this.id}” here.`);
  }

  onMessage(raw: string) {
    let m;
    try { m = serverMsg(JSON.parse(raw), ''); } catch (e) {
      this.err.textContent = e instanceof DecodeError ? `The server sent a message this page does not understand (${message(e)}).` : message(e);
      return;
    }
    switch (m.t) {
      case 'state': this.onState(m); break;
      case 'move': this.onMove(m); break;
      case 'presence': if (this.st) { this.st.players = m.players; this.st.watchers = m.watchers; this.render(); } break;
      case 'error': this.onError(m.code, m.message); break;
      case 'closing': this.err.textContent = m.message; break;
      case 'pong': break;
    }
  }
}

/** A plain page saying that there is nothing here. */
export function notFoundPage(text: string) {
  document.body.dataset.notfound = '1';
  app.replaceChildren(h('div', { class: 'panel', id: 'notfound' }, h('h1', { text: 'Not found' }), h('p', { text }), h('p', {}, h('a', { href: '/', text: 'Back to the lobby' }))));
}

export function gamePage(id: string) {
  new GamePage(id);
}
