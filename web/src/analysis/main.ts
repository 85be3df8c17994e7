// The analysis board (`/analysis`), its own bundle: the rules run here, compiled to
// WebAssembly (crates/wasm), and the engine in a Web Worker (worker.ts). A position is
// opened from a variant's start, a pasted FEN, a PGN or a share link; turns are entered
// on the board part by part (TurnBuilder), building a move tree with variations
// (tree.ts); the engine's lines follow the position shown. A position may be set up by
// hand (editor.ts); "Done" makes it the tree's root.
import type { Key } from 'chessgroundx/types';
import init, { WasmGame, variants as wasmVariants } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import { Board } from '../board';
import { h, message } from '../dom';
import { applyPart, unitsFromFen } from '../position';
import type { Turn } from '../protocol';
import { TurnBuilder } from '../turns';
import { Editor } from './editor';
import { Tree, exportPgn, parsePgn } from './tree';
import type { TreeNode } from './tree';
import { problemLink } from '../problems/link';
import type { FromWorker, Line, Options, State, ToWorker } from './wasm-types';

const app = document.getElementById('app')!;

class AnalysisPage {
  /** The game analysed: a registry name (set from the registry's list at the start). */
  variant = '';
  options: Options = {};
  tree = new Tree('');
  node: TreeNode = this.tree.root;
  st!: State;
  board?: Board;
  builder = new TurnBuilder();
  worker?: Worker;
  engineOn = false;
  jobId = 0;
  multipv = 3;
  lines: Line[] = [];
  depth = 0;
  /** The position editor, while a position is set up by hand. */
  editor?: Editor;
  /** When the last stop was sent (for the stop's answer time). */
  stopSent?: number;
  readonly el = {
    variant: h('select', { id: 'variant', 'aria-label': 'Variant' }),
    fen: h('input', { id: 'fen-input', placeholder: 'Paste a position (FEN)', 'aria-label': 'Position (FEN)' }),
    error: h('div', { id: 'error', class: 'error', role: 'alert' }),
    boardBox: h('div', { class: 'analysis-board' }),
    evalBar: h('div', { id: 'eval-bar', class: 'eval-bar' }, h('div', { class: 'eval-white' })),
    status: h('div', { id: 'status' }),
    parts: h('div', { id: 'turn-parts', class: 'parts hidden' }),
    moves: h('div', { id: 'tree', class: 'tree' }),
    comment: h('textarea', { id: 'comment', placeholder: 'Comment on this move', 'aria-label': 'Comment' }),
    engine: h('div', { id: 'engine', class: 'engine' }),
    engineBtn: h('button', { id: 'engine-toggle', text: 'Start the engine' }),
    multipv: h('select', { id: 'multipv', 'aria-label': 'Lines' }),
    lines: h('div', { id: 'lines', class: 'lines' }),
    pgn: h('textarea', { id: 'pgn', placeholder: 'Paste a PGN (with variations and comments)', 'aria-label': 'PGN' }),
    setup: h('div', { class: 'setup-box' }),
  };

  async start() {
    app.replaceChildren(h('p', { text: 'Loading the rules…' }));
    await init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
    // The registry's games by their titles (the first is the default).
    const names = JSON.parse(wasmVariants()) as string[];
    this.variant = names[0];
    for (const v of names) {
      const g = new WasmGame(v, '', '');
      try { this.el.variant.append(h('option', { value: v, text: (JSON.parse(g.state()) as State).descriptor.label })); } finally { g.free(); }
    }
    for (let i = 1; i <= 5; i++) this.el.multipv.append(h('option', { value: String(i), text: `${i} line${i > 1 ? 's' : ''}` }));
    this.el.multipv.value = String(this.multipv);
    this.layout();
    const q = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
    const variant = q.get('variant') || names[0];
    const pgn = q.get('pgn');
    try {
      const opts = q.get('options');
      if (opts) this.options = JSON.parse(opts) as Options;
      this.open(variant, q.get('fen') || '', pgn || undefined, Number(q.get('ply') ?? NaN));
      // From a game (the game page's "Analyse"): its moves as the main line, at a ply.
      const moves = (q.get('moves') || '').split(' ').filter(x => x);
      if (moves.length) {
        const g = this.game(this.tree.root);
        let n = this.tree.root;
        try { for (const m of moves) n = this.tree.add(n, JSON.parse(g.play(m)) as Turn); } finally { g.free(); }
        const ply = Number(q.get('ply') ?? moves.length);
        let at = this.tree.root;
        while (at.ply < ply && at.children[0]) at = at.children[0];
        this.goto(at);
      }
    } catch (e) {
      this.open(names[0], '');
      this.showError(message(e));
    }
  }

  layout() {
    const e = this.el;
    const openFen = h('button', { id: 'open-fen', text: 'Open position' });
    openFen.onclick = () => this.tryOpen(e.variant.value, e.fen.value.trim());
    const startPos = h('button', { id: 'start-position', text: 'Start position' });
    startPos.onclick = () => this.tryOpen(e.variant.value, '');
    const setUp = h('button', { id: 'setup-open', text: 'Set up a position' });
    setUp.onclick = () => this.startSetup();
    e.variant.onchange = () => this.tryOpen(e.variant.value, '');
    const importPgn = h('button', { id: 'import-pgn', text: 'Import PGN' });
    importPgn.onclick = () => {
      this.endSetup();
      try { this.openPgn(e.pgn.value); } catch (err) { this.showError(message(err)); }
    };
    const exportBtn = h('button', { id: 'export-pgn', text: 'Export PGN' });
    exportBtn.onclick = () => { e.pgn.value = this.pgn(); };
    const share = h('button', { id: 'share', text: 'Share link' });
    const shareOut = h('input', { id: 'share-link', readonly: 'readonly', 'aria-label': 'Share link' });
    share.onclick = () => {
      // The tree's PGN carries its root (a FEN tag when it is not the start: a position
      // set up by hand or pasted), the options the rules (fairy conditions…).
      const link = `${location.origin}/analysis#${new URLSearchParams({ variant: this.variant, options: JSON.stringify(this.options), pgn: this.pgn(), ply: String(this.node.ply) })}`;
      shareOut.value = link;
      history.replaceState(null, '', link);
      navigator.clipboard?.writeText(link).catch(() => undefined);
    };
    // The position shown, set up on the problems page (../problems/link.ts).
    const asProblem = h('a', { id: 'as-problem', href: '#', text: 'Set up as problem' });
    asProblem.onclick = ev => {
      ev.preventDefault();
      const link = problemLink(this.st.descriptor, this.st.fen, this.options.conditions ?? []);
      if (!link) { this.showError('Problems are chess problems with fairy conditions: this variant cannot be set up as one.'); return; }
      location.href = link;
    };
    e.engineBtn.onclick = () => this.toggleEngine();
    e.multipv.onchange = () => { this.multipv = Number(e.multipv.value); if (this.engineOn) this.analyse(); };
    e.comment.oninput = () => { this.node.comment = e.comment.value; this.renderTree(); };
    const back = h('button', { id: 'back', text: '◀', 'aria-label': 'Back' });
    back.onclick = () => this.goto(this.node.parent ?? this.node);
    const fwd = h('button', { id: 'forward', text: '▶', 'aria-label': 'Forward' });
    fwd.onclick = () => this.goto(this.node.children[0] ?? this.node);
    const promote = h('button', { id: 'promote', text: 'Make main line' });
    promote.onclick = () => { this.tree.promote(this.node); this.renderTree(); };
    const del = h('button', { id: 'delete', text: 'Delete from here' });
    del.onclick = () => { const p = this.node.parent; if (p) { this.tree.remove(this.node); this.goto(p); } };
    app.replaceChildren(h('div', { class: 'analysis' },
      h('div', { class: 'analysis-left' },
        h('div', { class: 'analysis-open' }, e.variant, e.fen, openFen, startPos, setUp),
        e.error,
        h('div', { class: 'analysis-main' }, e.evalBar, e.boardBox),
        e.setup,
        h('div', { class: 'analysis-play' }, e.status, e.parts,
          h('div', { class: 'nav' }, back, fwd, promote, del))),
      h('div', { class: 'analysis-right' },
        h('div', { class: 'engine-head' }, e.engineBtn, e.multipv), e.engine, e.lines,
        e.moves, e.comment,
        e.pgn, h('div', {}, importPgn, exportBtn, share), shareOut, h('p', {}, asProblem))));
    document.addEventListener('keydown', ev => {
      const t = ev.target as HTMLElement;
      if (this.editor || (t && (t.tagName === 'TEXTAREA' || t.tagName === 'INPUT' || t.tagName === 'SELECT'))) return;
      if (ev.key === 'ArrowLeft') { ev.preventDefault(); this.goto(this.node.parent ?? this.node); }
      else if (ev.key === 'ArrowRight') { ev.preventDefault(); this.goto(this.node.children[0] ?? this.node); }
      else if (ev.key === 'Home') this.goto(this.tree.root);
      else if (ev.key === 'End') { let n = this.node; while (n.children[0]) n = n.children[0]; this.goto(n); }
    });
  }

  showError(msg: string) {
    this.el.error.textContent = msg;
  }

  tryOpen(variant: string, fen: string) {
    this.endSetup();
    try { this.open(variant, fen); } catch (e) { this.showError(message(e)); }
  }

  // ---------- a position set up by hand ----------

  /** Opens the editor on the position shown. */
  startSetup() {
    if (this.editor) return;
    if (this.engineOn) this.toggleEngine();
    this.builder.reset();
    const board = this.ensureBoard();
    board.clearOffers();
    this.el.error.textContent = '';
    let editor: Editor;
    try {
      editor = new Editor({
        variant: this.variant,
        options: this.options,
        descriptor: this.st.descriptor,
        board,
        done: fen => { this.endSetup(); this.tryOpen(this.variant, fen); },
        cancel: () => { this.endSetup(); this.goto(this.node); },
      }, this.st.fen);
    } catch (e) {
      this.showError(message(e));
      return;
    }
    this.editor = editor;
    this.el.setup.replaceChildren(this.editor.panel);
    this.el.engineBtn.disabled = true;
    this.editor.refresh();
    document.body.dataset.setup = 'on';
    document.querySelector('.analysis')?.classList.add('editing');
  }

  endSetup() {
    if (!this.editor) return;
    this.editor = undefined;
    this.el.setup.replaceChildren();
    this.el.engineBtn.disabled = false;
    document.body.dataset.setup = 'off';
    document.querySelector('.analysis')?.classList.remove('editing');
  }

  /** Opens `fen` (empty: the start) of `variant`, with a PGN's tree if given. Throws the
   * rules' reason for a refused position. */
  open(variant: string, fen: string, pgn?: string, ply?: number) {
    if (pgn) { this.variant = variant; this.openPgn(pgn, ply); return; }
    const g = new WasmGame(variant, JSON.stringify(this.options), fen);
    g.free();
    this.variant = variant;
    this.tree = new Tree(fen);
    this.el.error.textContent = '';
    this.el.variant.value = variant;
    this.board?.wrap.remove();
    this.board = undefined;
    this.goto(this.tree.root);
  }

  openPgn(text: string, ply?: number) {
    const parsed = parsePgn(text, this.variant, this.options);
    this.variant = parsed.variant;
    this.tree = parsed.tree;
    this.el.error.textContent = '';
    this.el.variant.value = this.variant;
    this.board?.wrap.remove();
    this.board = undefined;
    let n = this.tree.root;
    if (ply !== undefined && !Number.isNaN(ply)) while (n.ply < ply && n.children[0]) n = n.children[0];
    this.goto(n);
  }

  pgn(): string {
    return exportPgn(this.tree, this.variant);
  }

  /** The game at `node`: the root position and the moves to it. */
  game(node: TreeNode): WasmGame {
    const g = new WasmGame(this.variant, JSON.stringify(this.options), this.tree.fen);
    for (const t of this.tree.path(node)) g.play(t.uci);
    return g;
  }

  goto(node: TreeNode) {
    this.endSetup();
    this.node = node;
    const g = this.game(node);
    this.st = JSON.parse(g.state()) as State;
    g.free();
    this.builder.reset(this.st.result === 'ongoing' ? this.st.legal : []);
    this.el.comment.value = node.comment;
    this.render();
    this.renderTree();
    if (this.engineOn) this.analyse();
  }

  ensureBoard(): Board {
    if (this.board) return this.board;
    this.board = new Board(this.el.boardBox, this.st.descriptor.pieces, this.st.fen, {
      move: (o, d) => (this.editor ? this.editor.moved(o, d) : this.onMove(o, d)),
      select: k => (this.editor ? this.editor.select(k) : this.onSelect(k)),
      dropOff: o => {
        if (this.editor) { this.editor.droppedOff(o); return; }
        const exit = this.builder.next().next.find(p => p === o + '--');
        if (exit) this.takePart(exit);
      },
    });
    return this.board;
  }

  render() {
    const st = this.st;
    const board = this.ensureBoard();
    const units = unitsFromFen(st.descriptor.pieces, st.fen);
    const t = this.builder.candidates()[0];
    // The parts entered so far, shown on the board.
    if (this.builder.prefix.length && t) t.canonical.split(' ; ').slice(0, this.builder.prefix.length).forEach(x => applyPart(units, x));
    board.show(units);
    const last = this.node.turn ? this.lastSquares(this.node.turn) : [];
    board.cg.set({
      turnColor: st.side,
      lastMove: last,
      check: st.in_check,
      movable: { free: false, color: 'both', dests: this.builder.dests() },
    });
    const d = document.body.dataset;
    d.ply = String(this.node.ply);
    d.fen = st.fen;
    d.side = st.side;
    d.prefix = this.builder.prefix.join(',');
    d.variant = this.variant;
    this.el.status.textContent = st.result === 'ongoing'
      ? `${st.side === 'white' ? 'White' : 'Black'} to move${st.in_check ? ', in check' : ''}.`
      : `Game over: ${st.result === 'draw' ? 'draw' : st.result === 'white' ? 'White wins' : 'Black wins'} (${st.reason}).`;
    this.renderParts();
    this.renderArrow();
  }

  lastSquares(t: Turn): Key[] {
    const out: Key[] = [];
    for (const p of t.shape?.parts ?? []) {
      if (p.kind === 'move') out.push(p.from as Key, p.to as Key);
      else if (p.kind === 'exit') out.push(p.from as Key);
      else if (p.kind === 'act') out.push(p.from as Key, p.target as Key);
    }
    return [...new Set(out)];
  }

  onMove(orig: Key, dest: Key) {
    const options = this.builder.partsBetween(orig, dest);
    if (options.length === 1) this.takePart(options[0]);
    else if (options.length > 1) this.choose(options);
    else this.render();
  }

  onSelect(key: Key) {
    const exit = this.builder.next().next.find(p => p === key + '--');
    if (exit && this.board) this.board.offerEdges(key, `move the piece on ${key} off the board`, () => this.takePart(exit));
    else this.board?.clearOffers();
  }

  /** Several parts between the same squares (a promotion, a landing square…): buttons with
   * the rules' words for each turn. */
  choose(options: string[]) {
    const p = this.el.parts;
    p.classList.remove('hidden');
    p.replaceChildren(h('div', { text: 'Choose:' }));
    for (const o of options) {
      const t = this.builder.turnWith(o);
      const b = h('button', { class: 'choice', 'data-part': o, text: t?.shape?.label || t?.notation || o });
      b.onclick = () => this.takePart(o);
      p.append(b);
    }
  }

  takePart(part: string) {
    this.board?.clearOffers();
    const r = this.builder.take(part);
    if (r === 'illegal') return;
    if (r === 'complete') { this.playTurn(); return; }
    this.render();
  }

  playTurn() {
    const turn = this.builder.candidates().find(t => t.uci === this.builder.turn());
    this.builder.reset();
    if (!turn) { this.render(); return; }
    this.goto(this.tree.add(this.node, turn));
  }

  renderParts() {
    const p = this.el.parts;
    p.replaceChildren();
    const { next, complete } = this.builder.next();
    const special = next.filter(x => x === '0000');
    const prefix = this.builder.prefix;
    if (!prefix.length && !special.length) { p.classList.add('hidden'); return; }
    p.classList.remove('hidden');
    if (prefix.length) p.append(h('div', { text: complete ? 'You may end the turn here or go on.' : 'Enter the next part on the board.' }));
    for (const s of special) {
      const t = this.builder.turnWith(s);
      const part = t?.shape?.parts[prefix.length];
      const isSwitch = part ? part.kind === 'empty' && part.switch : false;
      const b = h('button', { 'data-part': s, text: isSwitch ? 'Switch (then move a checkered piece)' : 'Pass (end the turn)' });
      b.onclick = () => this.takePart(s);
      p.append(b);
    }
    if (complete && next.length) {
      const b = h('button', { id: 'end-turn', class: 'primary', text: 'End turn here' });
      b.onclick = () => this.playTurn();
      p.append(b);
    }
    if (prefix.length) {
      const b = h('button', { id: 'cancel-turn', text: 'Cancel this turn' });
      b.onclick = () => { this.builder.reset(); this.render(); };
      p.append(b);
    }
  }

  renderTree() {
    const box = this.el.moves;
    box.replaceChildren();
    const line = (start: TreeNode | undefined, into: HTMLElement) => {
      let n: TreeNode | undefined = start;
      let showNumber = true;
      while (n && n.turn) {
        const white = n.ply % 2 === 1;
        if (white || showNumber) into.append(h('span', { class: 'move-number', text: `${Math.ceil(n.ply / 2)}${white ? '.' : '…'}` }));
        const node: TreeNode = n;
        const m = h('span', { class: 'move' + (node === this.node ? ' current' : ''), 'data-ply': String(node.ply), 'data-id': String(node.id), text: node.turn!.notation });
        m.onclick = () => this.goto(node);
        into.append(m);
        if (node.comment) into.append(h('span', { class: 'move-comment', text: node.comment }));
        showNumber = !!node.comment;
        const parent: TreeNode | undefined = node.parent;
        if (parent && parent.children[0] === node) {
          for (const alt of parent.children.slice(1)) {
            const v = h('span', { class: 'variation' });
            v.append('(');
            line(alt, v);
            v.append(')');
            into.append(v);
            showNumber = true;
          }
        }
        n = node.children[0];
      }
    };
    line(this.tree.root.children[0], box);
  }

  // ---------- the engine ----------

  toggleEngine() {
    this.engineOn = !this.engineOn;
    this.el.engineBtn.textContent = this.engineOn ? 'Stop the engine' : 'Start the engine';
    if (this.engineOn) this.analyse();
    else {
      this.stopSent = performance.now();
      delete document.body.dataset.stopMs;
      this.post({ t: 'stop' });
      this.el.engine.textContent = 'Stopped.';
      document.body.dataset.engine = 'stopped';
    }
  }

  post(m: ToWorker) {
    if (!this.worker) {
      this.worker = new Worker('/assets/analysis-worker.js', { type: 'module' });
      this.worker.onmessage = (e: MessageEvent<FromWorker>) => this.onWorker(e.data);
    }
    this.worker.postMessage(m);
  }

  analyse() {
    this.jobId++;
    this.lines = [];
    this.depth = 0;
    this.renderLines();
    this.el.engine.textContent = 'Thinking…';
    document.body.dataset.engine = 'running';
    const moves = this.tree.path(this.node).map(t => t.uci);
    this.post({ t: 'analyse', job: { id: this.jobId, variant: this.variant, options: this.options, fen: this.tree.fen, moves, multipv: this.multipv } });
  }

  onWorker(m: FromWorker) {
    if (m.t === 'ready') return;
    if (m.t === 'stopped' && this.stopSent !== undefined) document.body.dataset.stopMs = (performance.now() - this.stopSent).toFixed(1);
    if (m.id !== this.jobId) return;
    if (m.t === 'error') { this.el.engine.textContent = m.message; return; }
    if (m.t === 'stopped') {
      // How long the worker took to answer the stop (at most one slice).
      if (this.stopSent !== undefined) document.body.dataset.stopMs = (performance.now() - this.stopSent).toFixed(1);
      return;
    }
    // A step the worker sent before it read the stop: the person stopped, the lines stay.
    if (!this.engineOn) return;
    this.lines = m.step.lines;
    this.depth = m.step.depth;
    this.el.engine.textContent = m.step.done
      ? (this.lines.length ? `Depth ${this.depth}: done.` : 'No move to analyse: the game is over.')
      : `Depth ${this.depth}…`;
    if (m.step.done) document.body.dataset.engine = 'done';
    this.renderLines();
  }

  /** A score in words, White's view. */
  scoreText(l: Line): string {
    const sign = this.st.side === 'white' ? 1 : -1;
    if ('mate' in l.score) { const m = l.score.mate * sign; return m > 0 ? `White mates in ${m}` : `Black mates in ${-m}`; }
    const cp = (l.score.cp * sign) / 100;
    return `${cp > 0 ? '+' : ''}${cp.toFixed(2)}`;
  }

  renderLines() {
    const box = this.el.lines;
    box.replaceChildren();
    document.body.dataset.depth = String(this.depth);
    for (const l of this.lines) {
      const row = h('div', { class: 'line', 'data-rank': String(l.rank) },
        h('span', { class: 'line-score', text: this.scoreText(l) }),
        h('span', { class: 'line-depth', text: `depth ${l.depth}` }),
        h('span', { class: 'line-moves', text: l.notation.join(' ') }));
      box.append(row);
    }
    // The evaluation bar: White's share, from the best line.
    const best = this.lines[0];
    let white = 50;
    if (best) {
      const sign = this.st.side === 'white' ? 1 : -1;
      if ('mate' in best.score) white = best.score.mate * sign > 0 ? 100 : 0;
      else white = 50 + 50 * Math.tanh((best.score.cp * sign) / 400);
    }
    (this.el.evalBar.firstElementChild as HTMLElement).style.height = `${white}%`;
    this.el.evalBar.dataset.white = white.toFixed(0);
    this.renderArrow();
  }

  renderArrow() {
    const board = this.board;
    if (!board) return;
    const best = this.engineOn ? this.lines[0] : undefined;
    const token = best?.uci[0];
    const first = token ? token.split(/[/~#@]/)[0].split(',')[0] : '';
    const ok = /^[a-h][1-8][a-h][1-8]/.test(first);
    board.cg.setAutoShapes(ok ? [{ orig: first.slice(0, 2) as Key, dest: first.slice(2, 4) as Key, brush: 'paleBlue' }] : []);
  }
}

new AnalysisPage().start().catch(e => { app.replaceChildren(h('p', { class: 'error', text: message(e) })); });
