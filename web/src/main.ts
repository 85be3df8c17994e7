// Chimère's web front end: lobby, game, archive, rules and conditions pages.
// The board is chessgroundx; the server is the referee: it sends the legal turns (UCI
// token, canonical form, notation) and the client builds a multi-part turn part by part
// from them (comma-joined UCI parts), showing each part's effect from its canonical form.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Key, Piece, Role, Dests } from 'chessgroundx/types';
import type { DrawShape } from 'chessgroundx/draw';
import { RULES, CONDITION_NOTES } from './texts';

type Turn = { uci: string; notation: string; canonical: string };
type Unit = { colour: 'w' | 'b' | 'c'; letter: string };
type Units = Map<string, Unit>;

const app = document.getElementById('app')!;
const page = document.body.dataset.page || 'lobby';
const arg = document.body.dataset.arg || '';
const VARIANTS = ['chess', 'checkered', 'interweave', 'fugue', 'dynamo'];

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...kids: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

async function api(path: string, body?: unknown): Promise<any> {
  const res = await fetch(path, body === undefined ? {} : { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let data: any;
  try { data = JSON.parse(text); } catch { data = { error: text }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// ---------- positions from FEN and canonical forms ----------

const CHECKERED_LETTERS: Record<string, string> = { s: 'p', u: 'r', o: 'n', c: 'b', t: 'q' };

export function unitsFromFen(variant: string, fen: string): Units {
  const units: Units = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    let num = '';
    for (const ch of row) {
      if (ch >= '0' && ch <= '9') { num += ch; continue; }
      if (num) { file += parseInt(num, 10); num = ''; }
      if (!/[a-zA-Z]/.test(ch)) continue;
      const sq = 'abcdefgh'[file] + rank;
      const lower = ch.toLowerCase();
      if (variant === 'checkered' && CHECKERED_LETTERS[lower]) units.set(sq, { colour: 'c', letter: CHECKERED_LETTERS[lower] });
      else units.set(sq, { colour: ch === lower ? 'b' : 'w', letter: lower });
      file++;
    }
  });
  return units;
}

/** Applies one part of a canonical turn (`-e2:wp +e4:wp`) to the units. */
export function applyPart(units: Units, part: string) {
  const toks = part.trim().split(/\s+/);
  for (const t of toks) if (t.startsWith('-')) units.delete(t.slice(1, 3));
  for (const t of toks) if (t.startsWith('+')) {
    const [sq, cl] = t.slice(1).split(':');
    units.set(sq, { colour: cl[0] as 'w' | 'b' | 'c', letter: cl.slice(1) });
  }
}

function applyTurn(units: Units, canonical: string) {
  for (const p of canonical.split(' ; ')) applyPart(units, p);
}

function cgPieces(units: Units): Map<Key, Piece> {
  const m = new Map<Key, Piece>();
  for (const [sq, u] of units) {
    const role = ((u.colour === 'c' ? 'p' : '') + u.letter + '-piece') as Role;
    m.set(sq as Key, { role, color: u.colour === 'b' ? 'black' : 'white' });
  }
  return m;
}

function showUnits(cg: Api, units: Units) {
  const diff = new Map<Key, Piece | undefined>();
  for (const k of cg.state.boardState.pieces.keys()) diff.set(k, undefined);
  for (const [k, p] of cgPieces(units)) diff.set(k, p);
  cg.setPieces(diff);
}

function lastMoveSquares(canonical: string): Key[] {
  const toks = canonical.split(/\s+/).filter(t => t.startsWith('-') || t.startsWith('+'));
  const from = toks.find(t => t.startsWith('-'));
  const to = [...toks].reverse().find(t => t.startsWith('+')) || toks[toks.length - 1];
  return [from, to].filter(Boolean).map(t => t!.slice(1, 3) as Key);
}

function makeBoard(el: HTMLElement, variant: string, fen: string, extra: object = {}): Api {
  const cg = Chessground(el, { fen: '8/8/8/8/8/8/8/8', coordinates: false, autoCastle: false, animation: { enabled: true, duration: 150 }, ...extra });
  showUnits(cg, unitsFromFen(variant, fen));
  return cg;
}

// ---------- lobby ----------

async function lobbyPage() {
  const me = await api('/api/me');
  const info = await api('/api/variants');
  const conds = await api('/api/conditions');
  const err = h('div', { class: 'error' });
  const nameInput = h('input', { id: 'name', placeholder: 'Anonymous', maxlength: '24', value: me.name || '' });
  const nameBtn = h('button', { text: 'Save name' });
  nameBtn.onclick = async () => { try { await api('/api/name', { name: nameInput.value }); err.textContent = ''; } catch (e: any) { err.textContent = e.message; } };

  const variant = h('select', { id: 'variant' }, ...VARIANTS.map(v => h('option', { value: v, text: v[0].toUpperCase() + v.slice(1) })));
  const randomness = h('select', { id: 'randomness' }, h('option', { value: '0', text: 'standard array' }), h('option', { value: '1', text: 'random, symmetric' }), h('option', { value: '2', text: 'random, independent' }));
  const chess960 = h('input', { type: 'checkbox', id: 'chess960' });
  const sw = h('input', { type: 'checkbox', id: 'switch', checked: '' });
  const condInput = h('input', { id: 'conditions', list: 'condlist', placeholder: 'e.g. circe, einstein (comma-separated)' });
  const datalist = h('datalist', { id: 'condlist' }, ...conds.conditions.map((c: any) => h('option', { value: c.name })));
  const chessOpts = h('div', {}, h('label', {}, chess960, ' Chess960 castling'),
    h('label', {}, 'Fairy conditions: ', condInput, datalist),
    info.conditions_available ? '' : h('div', { class: 'legend', text: 'Fairy conditions are not yet playable in this build.' }));
  const checkeredOpts = h('label', {}, sw, ' Checkered: switch allowed');
  const minutes = h('input', { id: 'minutes', type: 'number', min: '0', max: '180', step: '0.5', value: '5', style: 'width:5em' });
  const increment = h('input', { id: 'increment', type: 'number', min: '0', max: '180', value: '3', style: 'width:5em' });
  const timed = h('input', { type: 'checkbox', id: 'timed', checked: '' });
  const colour = h('select', { id: 'colour' }, h('option', { value: 'random', text: 'random' }), h('option', { value: 'white', text: 'white' }), h('option', { value: 'black', text: 'black' }));
  const opponent = h('select', { id: 'opponent' }, h('option', { value: 'seek', text: 'open seek (anyone may accept)' }), h('option', { value: 'private', text: 'private link for a friend' }), h('option', { value: 'computer', text: 'the computer' }));
  const level = h('select', { id: 'level' }, ...[1, 2, 3, 4, 5, 6, 7, 8].map(l => h('option', { value: String(l), text: 'level ' + l })));
  const create = h('button', { class: 'primary', id: 'create', text: 'Create game' });
  const sync = () => {
    chessOpts.style.display = variant.value === 'chess' ? '' : 'none';
    checkeredOpts.style.display = variant.value === 'checkered' ? '' : 'none';
    level.style.display = opponent.value === 'computer' ? '' : 'none';
  };
  variant.onchange = sync; opponent.onchange = sync; sync();
  create.onclick = async () => {
    const body: any = { variant: variant.value, randomness: Number(randomness.value), colour: colour.value, opponent: opponent.value };
    if (variant.value === 'chess') {
      body.chess960 = chess960.checked;
      body.conditions = condInput.value.split(',').map(s => s.trim()).filter(Boolean);
    }
    if (variant.value === 'checkered') body.switch = sw.checked;
    if (timed.checked) { body.minutes = Number(minutes.value); body.increment = Number(increment.value); }
    if (opponent.value === 'computer') body.level = Number(level.value);
    try { const r = await api('/api/games', body); location.href = r.url; } catch (e: any) { err.textContent = e.message; }
  };
  const form = h('div', { class: 'panel' }, h('h2', { text: 'New game' }),
    h('label', {}, 'Variant: ', variant), h('label', {}, 'Start: ', randomness), chessOpts, checkeredOpts,
    h('label', {}, timed, ' Clock: ', minutes, ' minutes + ', increment, ' seconds'),
    h('label', {}, 'Your colour: ', colour), h('label', {}, 'Opponent: ', opponent, ' ', level), create, err);
  const seeks = h('tbody');
  const live = h('tbody');
  const lists = h('div', {},
    h('div', { class: 'panel' }, h('h2', { text: 'Open seeks' }), h('table', { class: 'list', id: 'seeks' }, seeks)),
    h('div', { class: 'panel' }, h('h2', { text: 'Games being played' }), h('table', { class: 'list', id: 'live' }, live)));
  app.append(h('div', { class: 'panel' }, 'Your name: ', nameInput, nameBtn), h('div', { class: 'row' }, form, lists));
  const refresh = async () => {
    try {
      const l = await api('/api/lobby');
      const row = (g: any, what: string) => {
        const tr = h('tr', { class: 'click' }, h('td', { text: g.variant }), h('td', { text: g.describe || '' }), h('td', { text: `${g.white} – ${g.black}` }), h('td', { text: g.time || '∞' }), h('td', { text: what }));
        tr.onclick = () => { location.href = '/game/' + g.id; };
        return tr;
      };
      seeks.replaceChildren(...l.seeks.map((g: any) => row(g, 'play ' + g.open)));
      live.replaceChildren(...l.live.map((g: any) => row(g, 'watch')));
      if (!l.seeks.length) seeks.append(h('tr', {}, h('td', { text: 'No open seek: create one.' })));
      if (!l.live.length) live.append(h('tr', {}, h('td', { text: 'No game in play.' })));
    } catch { /* retried */ }
  };
  refresh();
  setInterval(refresh, 3000);
}

// ---------- game ----------

function fmtClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function gamePage(id: string) {
  let st: any = null;
  let you: string | null = null;
  let viewPly: number | null = null; // null: the live position
  let orientation: 'white' | 'black' = 'white';
  let prefix: string[] = [];
  let ws: WebSocket | null = null;
  let clockBase = 0;
  let redirected = false;

  const boardEl = h('div', { class: 'board-box', id: 'board' });
  const topPlayer = h('div', { class: 'player' });
  const bottomPlayer = h('div', { class: 'player' });
  const status = h('div', { class: 'status', id: 'status' });
  const parts = h('div', { class: 'parts hidden', id: 'parts' });
  const moves = h('div', { class: 'moves', id: 'moves', tabindex: '0' });
  const actions = h('div', { id: 'actions' });
  const nav = h('div', { class: 'nav' });
  const err = h('div', { class: 'error', id: 'error' });
  const info = h('div', { class: 'legend', id: 'info' });
  app.append(h('div', { class: 'game' }, h('div', {}, topPlayer, boardEl, bottomPlayer), h('div', {}, info, status, parts, err, nav, moves, actions)));
  let cg: Api | null = null;

  const send = (m: object) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); };
  // The FEN of the position on the board: the live one, or the one after the move shown
  // in the move list (the server sends each move's resulting FEN).
  const shownFen = (): string => (viewPly === null ? st.fen : viewPly === 0 ? st.start_fen : st.moves[viewPly - 1].fen);
  const canMove = () => st && st.status === 'playing' && you === st.side && viewPly === null;
  const partsOf = (t: Turn) => t.uci.split(',');
  const candidates = (): Turn[] => (st?.legal || []).filter((t: Turn) => { const p = partsOf(t); return prefix.every((x, i) => p[i] === x); });

  function unitsAt(ply: number): Units {
    const u = unitsFromFen(st.variant, st.start_fen);
    for (let i = 0; i < ply; i++) applyTurn(u, st.moves[i].canonical);
    return u;
  }

  function nextParts(): { next: string[]; complete: Turn | undefined } {
    const c = candidates();
    const next = [...new Set(c.filter(t => partsOf(t).length > prefix.length).map(t => partsOf(t)[prefix.length]))];
    const complete = c.find(t => partsOf(t).length === prefix.length);
    return { next, complete };
  }

  function dests(): Dests {
    const d: Dests = new Map();
    if (!canMove()) return d;
    for (const p of nextParts().next) {
      if (p === '0000' || p.endsWith('--')) continue;
      const o = p.slice(0, 2) as Key, t = p.slice(2, 4) as Key;
      const list = d.get(o) || [];
      if (!list.includes(t)) list.push(t);
      d.set(o, list);
    }
    return d;
  }

  function choose(options: { label: string; value: string }[], done: (v: string | null) => void) {
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

  function takePart(part: string) {
    const c = candidates().filter(t => partsOf(t)[prefix.length] === part);
    if (!c.length) return;
    prefix.push(part);
    const { next, complete } = nextParts();
    if (complete && !next.length) {
      send({ t: 'move', ply: st.ply, turn: prefix.join(',') });
      prefix = [];
      return;
    }
    render();
  }

  function onBoardMove(orig: Key, dest: Key) {
    const options = nextParts().next.filter(p => p.slice(0, 4) === orig + dest);
    if (options.length === 0) { render(); return; }
    if (options.length === 1) { takePart(options[0]); return; }
    const label = (p: string) => {
      const t = candidates().find(x => partsOf(x)[prefix.length] === p);
      const suffix = p.slice(4);
      const names: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn', x: 'destroy both', i: 'immobilizer', u: 'pushme-pullyu', a: 'archer', s: 'shield', l: 'long leaper', w: 'swapper', k: 'king' };
      return `${names[suffix] || (suffix ? suffix : 'as it is')} (${t ? t.notation : p})`;
    };
    choose(options.map(p => ({ label: label(p), value: p })), v => { if (v) takePart(v); else render(); });
  }

  function renderParts() {
    parts.replaceChildren();
    if (!canMove()) { parts.classList.add('hidden'); return; }
    const { next, complete } = nextParts();
    const special = next.filter(p => p === '0000' || p.endsWith('--'));
    if (!prefix.length && !special.length) { parts.classList.add('hidden'); return; }
    parts.classList.remove('hidden');
    if (prefix.length) parts.append(h('div', { text: `Turn so far: ${prefix.join(', ')} — ${complete ? 'you may end the turn here or go on' : 'waiting for the next part'}` }));
    for (const p of special) {
      const label = p === '0000' ? (st.variant === 'checkered' && prefix.length === 0 ? 'Switch (checkered pieces to the opponent)' : 'Pass (end the turn)') : `Move ${p.slice(0, 2)} off the board`;
      const b = h('button', { text: label, 'data-part': p });
      b.onclick = () => takePart(p);
      parts.append(b);
    }
    if (complete && next.length) {
      const b = h('button', { class: 'primary', text: 'End turn here', id: 'end-turn' });
      b.onclick = () => { send({ t: 'move', ply: st.ply, turn: prefix.join(',') }); prefix = []; };
      parts.append(b);
    }
    if (prefix.length) {
      const b = h('button', { text: 'Cancel this turn', id: 'cancel-turn' });
      b.onclick = () => { prefix = []; render(); };
      parts.append(b);
    }
  }

  function renderMoves() {
    moves.replaceChildren();
    const cur = viewPly === null ? st.moves.length : viewPly;
    st.moves.forEach((m: Turn, i: number) => {
      if (i % 2 === 0) moves.append(h('span', { class: 'num', text: `${i / 2 + 1}.` }));
      const e = h('span', { class: 'mv' + (i + 1 === cur ? ' current' : ''), text: m.notation, title: m.uci, 'data-ply': String(i + 1) });
      e.onclick = () => { viewPly = i + 1 === st.moves.length ? null : i + 1; render(); };
      moves.append(e);
    });
    const current = moves.querySelector('.current');
    if (current) (current as HTMLElement).scrollIntoView({ block: 'nearest' });
  }

  function playerBox(side: 'white' | 'black', el: HTMLElement) {
    const p = st.players[side];
    const name = p ? p.name : '(open seat)';
    const clock = h('span', { class: 'clock', id: `clock-${side}` });
    el.replaceChildren(h('span', { class: 'name' + (p && (p.online || p.bot) ? ' online' : ''), text: `${side === 'white' ? '○' : '●'} ${name}${you === side ? ' (you)' : ''}` }), st.clock ? clock : '');
  }

  function tick() {
    if (!st || !st.clock) return;
    for (const side of ['white', 'black']) {
      const el = document.getElementById(`clock-${side}`);
      if (!el) continue;
      let ms = st.clock[`${side}_ms`];
      const running = st.clock.running === side && st.status === 'playing';
      if (running) ms -= Date.now() - clockBase;
      el.textContent = fmtClock(ms);
      el.className = 'clock' + (running ? ' running' : '') + (ms < 10000 ? ' low' : '');
    }
  }
  setInterval(tick, 200);

  function statusText(): string {
    if (viewPly !== null) return `Viewing ply ${viewPly} of ${st.moves.length} (End: back to the game)`;
    if (st.status === 'waiting') return 'Waiting for an opponent.';
    if (st.status === 'aborted') return `Aborted (${st.reason}).`;
    if (st.status === 'finished') return `${st.result} — ${st.reason}`;
    const side = st.side === 'white' ? 'White' : 'Black';
    return you === st.side ? `Your turn (${side}).` : `${side} to move.`;
  }

  function renderActions() {
    actions.replaceChildren();
    const btn = (text: string, id: string, f: () => void, primary = false) => { const b = h('button', { text, id, class: primary ? 'primary' : '' }); b.onclick = f; actions.append(b); };
    const opp = you === 'white' ? 'black' : 'white';
    if (st.status === 'waiting') {
      if (!you) btn('Join this game', 'join', () => send({ t: 'join' }), true);
      else {
        actions.append(h('div', {}, 'Send this link to your opponent: ', h('span', { class: 'link', id: 'invite', text: location.href })));
        btn('Cancel game', 'abort', () => send({ t: 'abort' }));
      }
    }
    if (st.status === 'playing' && you) {
      if (st.ply < 2) btn('Abort', 'abort', () => send({ t: 'abort' }));
      btn('Resign', 'resign', () => { if (confirm('Resign this game?')) send({ t: 'resign' }); });
      if (st.offers.draw === opp) { btn('Accept draw', 'draw-accept', () => send({ t: 'draw', action: 'accept' }), true); btn('Decline draw', 'draw-decline', () => send({ t: 'draw', action: 'decline' })); }
      else btn(st.offers.draw === you ? 'Draw offered' : 'Offer draw', 'draw', () => send({ t: 'draw', action: 'offer' }));
      if (!st.players[opp]?.bot) {
        if (st.offers.takeback === opp) { btn('Accept takeback', 'takeback-accept', () => send({ t: 'takeback', action: 'accept' }), true); btn('Decline takeback', 'takeback-decline', () => send({ t: 'takeback', action: 'decline' })); }
        else btn(st.offers.takeback === you ? 'Takeback asked' : 'Ask takeback', 'takeback', () => send({ t: 'takeback', action: 'offer' }));
      }
    }
    if ((st.status === 'finished' || st.status === 'aborted') && you && st.kind !== 'import') {
      if (st.rematch) actions.append(h('a', { href: '/game/' + st.rematch, id: 'rematch-link', text: 'Go to the rematch' }));
      else if (st.offers.rematch === opp) btn('Accept rematch', 'rematch-accept', () => send({ t: 'rematch', action: 'accept' }), true);
      else btn(st.offers.rematch === you ? 'Rematch offered' : 'Rematch', 'rematch', () => send({ t: 'rematch', action: 'offer' }));
    }
    actions.append(h('br'));
    btn('Flip board', 'flip', () => { orientation = orientation === 'white' ? 'black' : 'white'; cg?.set({ orientation }); render(); });
    btn('Copy FEN', 'copy-fen', () => { const fen = shownFen(); navigator.clipboard?.writeText(fen).catch(() => {}); err.textContent = ''; info.textContent = 'FEN: ' + fen; });
    const a = h('a', { href: `/api/games/${id}/pgn`, id: 'pgn', download: `chimere-${id}.pgn`, text: 'Download PGN' });
    actions.append(' ', a);
  }

  function render() {
    if (!st) return;
    if (!cg) {
      orientation = you === 'black' ? 'black' : 'white';
      cg = makeBoard(boardEl, st.variant, st.start_fen, {
        orientation,
        movable: { free: false, color: 'both', showDests: true, events: { after: onBoardMove } },
        draggable: { enabled: true, showGhost: true },
        selectable: { enabled: true },
        premovable: { enabled: false },
      });
    }
    const ply = viewPly === null ? st.moves.length : viewPly;
    const units = unitsAt(ply);
    if (viewPly === null && prefix.length) {
      const t = candidates()[0];
      if (t) t.canonical.split(' ; ').slice(0, prefix.length).forEach(p => applyPart(units, p));
    }
    showUnits(cg, units);
    const last = ply > 0 ? lastMoveSquares(st.moves[ply - 1].canonical) : [];
    cg.set({
      orientation,
      turnColor: st.side,
      lastMove: last,
      movable: { color: 'both', dests: dests() },
      viewOnly: false,
    });
    document.body.dataset.ply = String(st.ply);
    document.body.dataset.status = st.status;
    document.body.dataset.side = st.side;
    document.body.dataset.prefix = prefix.join(',');
    info.textContent = `${st.variant}${st.describe ? ' (' + st.describe + ')' : ''}${st.clock ? ` · ${st.clock.initial_ms / 60000} min + ${st.clock.increment_ms / 1000} s` : ' · no clock'}`;
    const top = orientation === 'white' ? 'black' : 'white';
    playerBox(top, topPlayer);
    playerBox(orientation, bottomPlayer);
    status.textContent = statusText();
    renderParts();
    renderMoves();
    renderActions();
    tick();
  }

  const navBtn = (label: string, id: string, f: () => void) => { const b = h('button', { text: label, id, title: id }); b.onclick = f; nav.append(b); };
  const go = (p: number | null) => { if (!st) return; if (p !== null) p = Math.max(0, Math.min(st.moves.length, p)); viewPly = p === st?.moves.length ? null : p; render(); };
  const cur = () => (viewPly === null ? st.moves.length : viewPly);
  navBtn('|<', 'first', () => go(0));
  navBtn('<', 'prev', () => go(cur() - 1));
  navBtn('>', 'next', () => go(cur() + 1));
  navBtn('>|', 'last', () => go(null));
  document.addEventListener('keydown', e => {
    if (!st || (e.target as HTMLElement).tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') go(cur() - 1);
    else if (e.key === 'ArrowRight') go(cur() + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(null);
    else if (e.key === 'Escape') { prefix = []; render(); }
    else if (e.key === 'f') { orientation = orientation === 'white' ? 'black' : 'white'; render(); }
    else return;
    e.preventDefault();
  });

  let delay = 500;
  function connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${proto}://${location.host}/ws/${id}`);
    ws.onopen = () => { delay = 500; document.body.dataset.connected = '1'; };
    ws.onmessage = ev => {
      const m = JSON.parse(ev.data);
      if (m.t === 'state') {
        if (m.you !== null || st === null || m.id !== st.id) { you = m.you ?? you; }
        if (st && m.players && you && !m.you) { /* broadcast: keep our seat */ }
        st = m;
        clockBase = Date.now();
        prefix = [];
        err.textContent = '';
        if (st.rematch && !redirected && you && st.offers && sessionStorage.getItem('rematch-seen-' + st.id) !== '1') {
          sessionStorage.setItem('rematch-seen-' + st.id, '1');
          redirected = true;
          location.href = '/game/' + st.rematch;
          return;
        }
        render();
      } else if (m.t === 'move') {
        if (!st || m.ply !== st.ply + 1) { send({ t: 'sync' }); return; }
        st.moves.push({ ...m.move, fen: m.fen });
        st.ply = m.ply; st.fen = m.fen; st.side = m.side; st.legal = m.legal; st.clock = m.clock;
        clockBase = Date.now();
        prefix = [];
        err.textContent = '';
        render();
      } else if (m.t === 'presence') {
        if (st) { st.players = m.players; render(); }
      } else if (m.t === 'error') {
        err.textContent = m.message;
        prefix = [];
        render();
      }
    };
    ws.onclose = () => { document.body.dataset.connected = '0'; setTimeout(connect, delay); delay = Math.min(delay * 2, 5000); };
  }
  connect();
}

// ---------- archive ----------

async function archivePage() {
  const filter = h('select', { id: 'filter' }, h('option', { value: '', text: 'all variants' }), ...VARIANTS.map(v => h('option', { value: v, text: v })));
  const body = h('tbody');
  const load = async () => {
    const r = await api('/api/archive?variant=' + filter.value);
    body.replaceChildren(...r.games.map((g: any) => {
      const tr = h('tr', { class: 'click' }, h('td', { text: g.variant }), h('td', { text: `${g.white} – ${g.black}` }), h('td', { text: g.result }), h('td', { text: g.reason }), h('td', { text: `${g.ply} plies` }), h('td', { text: new Date(g.updated_ms).toLocaleString() }));
      tr.onclick = () => { location.href = '/game/' + g.id; };
      return tr;
    }));
    if (!r.games.length) body.append(h('tr', {}, h('td', { text: 'No finished game yet.' })));
  };
  filter.onchange = load;
  const text = h('textarea', { id: 'pgn-text', rows: '8', style: 'width:100%', placeholder: '[Variant "dynamo"]\n[FEN "..."]\n\n1. ...' });
  const imp = h('button', { class: 'primary', id: 'import', text: 'Import PGN' });
  const err = h('div', { class: 'error' });
  imp.onclick = async () => { try { const r = await api('/api/import', text.value); location.href = r.url; } catch (e: any) { err.textContent = e.message; } };
  app.append(h('div', { class: 'panel' }, h('h2', { text: 'Finished games' }), 'Show: ', filter, h('table', { class: 'list' }, body)),
    h('div', { class: 'panel' }, h('h2', { text: 'Import a game (PGN)' }), h('p', { class: 'legend', text: 'Tags read: Variant, FEN, Conditions, Options, White, Black, Result. Turns in the variant\'s notation, UCI tokens or canonical form.' }), text, imp, err));
  load();
}

// ---------- rules and conditions ----------

function rulesPage(variant: string) {
  if (!variant || !RULES[variant]) {
    app.append(h('div', { class: 'panel' }, h('h1', { text: 'Rules' }), ...VARIANTS.map(v => h('p', {}, h('a', { href: '/rules/' + v, text: RULES[v].title }), ' — ' + RULES[v].summary))));
    return;
  }
  const r = RULES[variant];
  const box = h('div', { class: 'panel rules' }, h('h1', { text: r.title }));
  for (const sec of r.sections) {
    box.append(h('h2', { text: sec.heading }));
    for (const p of sec.text) box.append(h('p', { text: p }));
    for (const d of sec.diagrams || []) {
      const el = h('div', {});
      const wrap = h('div', { class: 'diagram' }, h('div', { class: 'small-board' }, el), h('div', { class: 'caption', text: d.caption }));
      box.append(wrap);
      requestAnimationFrame(() => {
        const shapes: DrawShape[] = (d.arrows || []).map(a => ({ orig: a.slice(0, 2) as Key, dest: a.slice(2, 4) as Key, brush: 'green' }));
        for (const c of d.circles || []) shapes.push({ orig: c as Key, brush: 'red' });
        makeBoard(el, variant, d.fen, { viewOnly: true, drawable: { enabled: false, visible: true, autoShapes: shapes } });
      });
    }
  }
  app.append(box);
}

async function conditionsPage() {
  const r = await api('/api/conditions');
  const body = h('tbody');
  for (const c of r.conditions) {
    const key = Object.keys(CONDITION_NOTES).filter(k => c.name.startsWith(k)).sort((a, b) => b.length - a.length)[0];
    body.append(h('tr', {}, h('td', { text: c.name }), h('td', { text: c.popeye }), h('td', { text: key ? CONDITION_NOTES[key] : '' })));
  }
  app.append(h('div', { class: 'panel' }, h('h1', { text: 'Fairy conditions' }),
    h('p', { text: 'Chess games can be played under these conditions (chosen in the lobby, several at once where they compose). The name is what the lobby and `chimere moves -c` accept; the keyword is Popeye\'s.' }),
    h('table', { class: 'list', id: 'conditions' }, h('thead', {}, h('tr', {}, h('th', { text: 'name' }), h('th', { text: 'Popeye keyword' }), h('th', { text: 'in short' }))), body)));
}

if (page === 'lobby') lobbyPage();
else if (page === 'game') gamePage(arg);
else if (page === 'archive') archivePage();
else if (page === 'rules') rulesPage(arg);
else if (page === 'conditions') conditionsPage();
