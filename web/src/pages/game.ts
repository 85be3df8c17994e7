// The game page: the board and the turn builder, the players and clocks, the move list
// with navigation, the actions (offers, resign, rematch), over the game's WebSocket.
import type { Api } from 'chessgroundx/api';
import type { Key } from 'chessgroundx/types';
import { DecodeError } from '../decode';
import { app, h, message } from '../dom';
import { applyPart, applyTurn, lastMoveSquares, makeBoard, showUnits, unitsFromFen } from '../position';
import type { Units } from '../position';
import { serverMsg } from '../protocol';
import type { ClientMsg, MoveMsg, Side, StateMsg } from '../protocol';
import { TurnBuilder, isSpecialPart } from '../turns';

function fmtClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const other = (s: Side): Side => (s === 'white' ? 'black' : 'white');

const PIECE_NAMES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn', x: 'destroy both', i: 'immobilizer', u: 'pushme-pullyu', a: 'archer', s: 'shield', l: 'long leaper', w: 'swapper', k: 'king' };

class GamePage {
  st: StateMsg | null = null;
  you: Side | null = null;
  /** The ply shown; null: the live position. */
  viewPly: number | null = null;
  orientation: Side = 'white';
  builder = new TurnBuilder();
  ws: WebSocket | null = null;
  clockBase = 0;
  redirected = false;
  delay = 500;
  cg: Api | null = null;

  boardEl = h('div', { class: 'board-box', id: 'board' });
  topPlayer = h('div', { class: 'player' });
  bottomPlayer = h('div', { class: 'player' });
  status = h('div', { class: 'status', id: 'status' });
  parts = h('div', { class: 'parts hidden', id: 'parts' });
  moves = h('div', { class: 'moves', id: 'moves', tabindex: '0' });
  actions = h('div', { id: 'actions' });
  nav = h('div', { class: 'nav' });
  err = h('div', { class: 'error', id: 'error' });
  info = h('div', { class: 'legend', id: 'info' });

  constructor(readonly id: string) {
    app.append(h('div', { class: 'game' }, h('div', {}, this.topPlayer, this.boardEl, this.bottomPlayer), h('div', {}, this.info, this.status, this.parts, this.err, this.nav, this.moves, this.actions)));
    this.navButtons();
    setInterval(() => this.tick(), 200);
    this.connect();
  }

  send(m: ClientMsg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  /** The FEN of the position shown: the live one or the one after the move selected. */
  shownFen(st: StateMsg): string {
    return this.viewPly === null ? st.fen : this.viewPly === 0 ? st.start_fen : st.moves[this.viewPly - 1].fen;
  }

  canMove(): boolean {
    const st = this.st;
    return !!st && st.status === 'playing' && this.you === st.side && this.viewPly === null;
  }

  unitsAt(st: StateMsg, ply: number): Units {
    const u = unitsFromFen(st.variant, st.start_fen);
    for (let i = 0; i < ply; i++) applyTurn(u, st.moves[i].canonical);
    return u;
  }

  choose(options: { label: string; value: string }[], done: (v: string | null) => void) {
    const box = h('div', { class: 'choice', id: 'choice' });
    const inner = h('div', {}, h('p', { text: 'Choose:' }));
    for (const o of options) {
      const b = h('button', { text: o.label, 'data-part': o.value });
      b.onclick = () => { box.remove(); done(o.value); };
      inner.append(b);
    }
    const cancel = h('button', { text: 'Cancel' });
    cancel.onclick = () => { box.remove(); done(null); };
    inner.append(cancel);
    box.append(inner);
    document.body.append(box);
  }

  sendTurn() {
    if (!this.st) return;
    this.send({ t: 'move', ply: this.st.ply, turn: this.builder.turn() });
    this.builder.reset();
  }

  takePart(part: string) {
    const r = this.builder.take(part);
    if (r === 'illegal') return;
    if (r === 'complete') { this.sendTurn(); return; }
    this.render();
  }

  onBoardMove(orig: Key, dest: Key) {
    if (!this.canMove()) { this.render(); return; }
    const options = this.builder.partsBetween(orig, dest);
    if (options.length === 0) { this.render(); return; }
    if (options.length === 1) { this.takePart(options[0]); return; }
    const label = (p: string) => {
      const t = this.builder.turnWith(p);
      const suffix = p.slice(4);
      return `${PIECE_NAMES[suffix] || (suffix ? suffix : 'as it is')} (${t ? t.notation : p})`;
    };
    this.choose(options.map(p => ({ label: label(p), value: p })), v => { if (v) this.takePart(v); else this.render(); });
  }

  renderParts(st: StateMsg) {
    const parts = this.parts;
    parts.replaceChildren();
    if (!this.canMove()) { parts.classList.add('hidden'); return; }
    const prefix = this.builder.prefix;
    const { next, complete } = this.builder.next();
    const special = next.filter(isSpecialPart);
    if (!prefix.length && !special.length) { parts.classList.add('hidden'); return; }
    parts.classList.remove('hidden');
    if (prefix.length) parts.append(h('div', { text: `Turn so far: ${prefix.join(', ')} — ${complete ? 'you may end the turn here or go on' : 'waiting for the next part'}` }));
    for (const p of special) {
      const label = p === '0000' ? (st.variant === 'checkered' && prefix.length === 0 ? 'Switch (checkered pieces to the opponent)' : 'Pass (end the turn)') : `Move ${p.slice(0, 2)} off the board`;
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
      b.onclick = () => { this.builder.reset(); this.render(); };
      parts.append(b);
    }
  }

  renderMoves(st: StateMsg) {
    const moves = this.moves;
    moves.replaceChildren();
    const cur = this.viewPly === null ? st.moves.length : this.viewPly;
    st.moves.forEach((m, i) => {
      if (i % 2 === 0) moves.append(h('span', { class: 'num', text: `${i / 2 + 1}.` }));
      const e = h('span', { class: 'mv' + (i + 1 === cur ? ' current' : ''), text: m.notation, title: m.uci, 'data-ply': String(i + 1) });
      e.onclick = () => this.go(i + 1);
      moves.append(e);
    });
    const current = moves.querySelector<HTMLElement>('.current');
    if (current) current.scrollIntoView({ block: 'nearest' });
  }

  playerBox(st: StateMsg, side: Side, el: HTMLElement) {
    const p = st.players[side];
    const name = p ? p.name : '(open seat)';
    const clock = h('span', { class: 'clock', id: `clock-${side}` });
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
    if (this.viewPly !== null) return `Viewing ply ${this.viewPly} of ${st.moves.length} (End: back to the game)`;
    if (st.status === 'waiting') return 'Waiting for an opponent.';
    if (st.status === 'aborted') return `Aborted (${st.reason}).`;
    if (st.status === 'finished') return `${st.result} — ${st.reason}`;
    const side = st.side === 'white' ? 'White' : 'Black';
    return this.you === st.side ? `Your turn (${side}).` : `${side} to move.`;
  }

  renderActions(st: StateMsg) {
    const actions = this.actions;
    const you = this.you;
    actions.replaceChildren();
    const btn = (text: string, id: string, f: () => void, primary = false) => { const b = h('button', { text, id, class: primary ? 'primary' : '' }); b.onclick = f; actions.append(b); };
    if (st.status === 'waiting') {
      if (!you) btn('Join this game', 'join', () => this.send({ t: 'join' }), true);
      else {
        actions.append(h('div', {}, 'Send this link to your opponent: ', h('span', { class: 'link', id: 'invite', text: location.href })));
        btn('Cancel game', 'abort', () => this.send({ t: 'abort' }));
      }
    }
    if (st.status === 'playing' && you) {
      const opp = other(you);
      if (st.ply < 2) btn('Abort', 'abort', () => this.send({ t: 'abort' }));
      btn('Resign', 'resign', () => { if (confirm('Resign this game?')) this.send({ t: 'resign' }); });
      if (st.offers.draw === opp) { btn('Accept draw', 'draw-accept', () => this.send({ t: 'draw', action: 'accept' }), true); btn('Decline draw', 'draw-decline', () => this.send({ t: 'draw', action: 'decline' })); }
      else btn(st.offers.draw === you ? 'Draw offered' : 'Offer draw', 'draw', () => this.send({ t: 'draw', action: 'offer' }));
      if (!st.players[opp]?.bot) {
        if (st.offers.takeback === opp) { btn('Accept takeback', 'takeback-accept', () => this.send({ t: 'takeback', action: 'accept' }), true); btn('Decline takeback', 'takeback-decline', () => this.send({ t: 'takeback', action: 'decline' })); }
        else btn(st.offers.takeback === you ? 'Takeback asked' : 'Ask takeback', 'takeback', () => this.send({ t: 'takeback', action: 'offer' }));
      }
    }
    if ((st.status === 'finished' || st.status === 'aborted') && you && st.kind !== 'import') {
      const opp = other(you);
      if (st.rematch) actions.append(h('a', { href: '/game/' + st.rematch, id: 'rematch-link', text: 'Go to the rematch' }));
      else if (st.offers.rematch === opp) btn('Accept rematch', 'rematch-accept', () => this.send({ t: 'rematch', action: 'accept' }), true);
      else btn(st.offers.rematch === you ? 'Rematch offered' : 'Rematch', 'rematch', () => this.send({ t: 'rematch', action: 'offer' }));
    }
    actions.append(h('br'));
    btn('Flip board', 'flip', () => this.flip());
    btn('Copy FEN', 'copy-fen', () => { const fen = this.shownFen(st); navigator.clipboard?.writeText(fen).catch(() => {}); this.err.textContent = ''; this.info.textContent = 'FEN: ' + fen; });
    const a = h('a', { href: `/api/games/${this.id}/pgn`, id: 'pgn', download: `chimere-${this.id}.pgn`, text: 'Download PGN' });
    actions.append(' ', a);
  }

  flip() {
    this.orientation = other(this.orientation);
    this.render();
  }

  render() {
    const st = this.st;
    if (!st) return;
    if (!this.cg) {
      this.orientation = this.you === 'black' ? 'black' : 'white';
      this.cg = makeBoard(this.boardEl, st.variant, st.start_fen, {
        orientation: this.orientation,
        movable: { free: false, color: 'both', showDests: true, events: { after: (o, d) => this.onBoardMove(o, d) } },
        draggable: { enabled: true, showGhost: true },
        selectable: { enabled: true },
        premovable: { enabled: false },
      });
    }
    const cg = this.cg;
    const ply = this.viewPly === null ? st.moves.length : this.viewPly;
    const units = this.unitsAt(st, ply);
    const prefix = this.builder.prefix;
    if (this.viewPly === null && prefix.length) {
      const t = this.builder.candidates()[0];
      if (t) t.canonical.split(' ; ').slice(0, prefix.length).forEach(p => applyPart(units, p));
    }
    showUnits(cg, units);
    const last = ply > 0 ? lastMoveSquares(st.moves[ply - 1].canonical) : [];
    cg.set({
      orientation: this.orientation,
      turnColor: st.side,
      lastMove: last,
      movable: { color: 'both', dests: this.canMove() ? this.builder.dests() : new Map() },
      viewOnly: false,
    });
    const data = document.body.dataset;
    data.ply = String(st.ply);
    data.status = st.status;
    data.side = st.side;
    data.prefix = prefix.join(',');
    this.info.textContent = `${st.variant}${st.describe ? ' (' + st.describe + ')' : ''}${st.clock ? ` · ${st.clock.initial_ms / 60000} min + ${st.clock.increment_ms / 1000} s` : ' · no clock'}`;
    this.playerBox(st, other(this.orientation), this.topPlayer);
    this.playerBox(st, this.orientation, this.bottomPlayer);
    this.status.textContent = this.statusText(st);
    this.renderParts(st);
    this.renderMoves(st);
    this.renderActions(st);
    this.tick();
  }

  /** Shows the position after ply `p` (null or the last ply: live). */
  go(p: number | null) {
    const st = this.st;
    if (!st) return;
    if (p !== null) p = Math.max(0, Math.min(st.moves.length, p));
    this.viewPly = p === st.moves.length ? null : p;
    this.render();
  }

  cur(): number {
    return this.viewPly === null ? (this.st?.moves.length ?? 0) : this.viewPly;
  }

  navButtons() {
    const navBtn = (label: string, id: string, f: () => void) => { const b = h('button', { text: label, id, title: id }); b.onclick = f; this.nav.append(b); };
    navBtn('|<', 'first', () => this.go(0));
    navBtn('<', 'prev', () => this.go(this.cur() - 1));
    navBtn('>', 'next', () => this.go(this.cur() + 1));
    navBtn('>|', 'last', () => this.go(null));
    document.addEventListener('keydown', e => {
      if (!this.st || (e.target instanceof HTMLElement && e.target.tagName === 'INPUT')) return;
      if (e.key === 'ArrowLeft') this.go(this.cur() - 1);
      else if (e.key === 'ArrowRight') this.go(this.cur() + 1);
      else if (e.key === 'Home') this.go(0);
      else if (e.key === 'End') this.go(null);
      else if (e.key === 'Escape') { this.builder.reset(); this.render(); }
      else if (e.key === 'f') this.flip();
      else return;
      e.preventDefault();
    });
  }

  onState(m: StateMsg) {
    if (m.you !== null || this.st === null || m.id !== this.st.id) this.you = m.you ?? this.you;
    this.st = m;
    this.clockBase = Date.now();
    this.builder.reset(m.legal);
    this.err.textContent = '';
    if (m.rematch && !this.redirected && this.you && sessionStorage.getItem('rematch-seen-' + m.id) !== '1') {
      sessionStorage.setItem('rematch-seen-' + m.id, '1');
      this.redirected = true;
      location.href = '/game/' + m.rematch;
      return;
    }
    this.render();
  }

  onMove(m: MoveMsg) {
    const st = this.st;
    if (!st || m.ply !== st.ply + 1) { this.send({ t: 'sync' }); return; }
    st.moves.push({ ...m.move, fen: m.fen });
    st.ply = m.ply; st.fen = m.fen; st.side = m.side; st.legal = m.legal; st.clock = m.clock;
    this.clockBase = Date.now();
    this.builder.reset(m.legal);
    this.err.textContent = '';
    this.render();
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
      case 'presence': if (this.st) { this.st.players = m.players; this.render(); } break;
      case 'error': this.err.textContent = m.message; this.builder.reset(); this.render(); break;
      case 'pong': break;
    }
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.id}`);
    this.ws = ws;
    ws.onopen = () => { this.delay = 500; document.body.dataset.connected = '1'; };
    ws.onmessage = ev => this.onMessage(String(ev.data));
    ws.onclose = () => {
      document.body.dataset.connected = '0';
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }
}

export function gamePage(id: string) {
  new GamePage(id);
}
