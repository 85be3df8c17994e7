// The problems page (`/problems`), its own bundle: compose a fairy problem on a board (units
// of either colour and neutral ones, every piece the solver knows), its conditions (the
// server's registry, /api/conditions), stipulation, options and twins, or paste Popeye
// input — the form and the text stay in step, each read by the solver compiled to
// WebAssembly (crates/wasm/src/solve.rs). Solve runs in a Web Worker (problem-worker.ts):
// its text appears as it is written, Cancel terminates the worker at once. Results: the
// solver's text (copyable) and a tree whose moves play on the board.
import init, { conditionPopeye, readPopeye, solverCatalogue } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import { api, h, message } from '../dom';
import { conditionsList } from '../protocol';
import { drawBoard, drawPiece, writePopeye } from './problem-board';
import { fromProblemLink } from '../problems/link';
import { problemFull, importReport, statusText } from '../problems/api';
import { collectionPage, showReport } from './problem-collection';
import type { BoardUnit, Catalogue, ConditionText, FormProblem, FormTwin, FormTwinCmd, FromWorker, LineError, ProblemResult, Read, Side, SolNode, ToWorker } from '../problems/wasm-types';

type Condition = { name: string; popeye: string; params: string; summary: string };

const app = document.getElementById('app')!;

export const emptyProblem = (): FormProblem => ({
  title: '', author: '', origin: '', pieces: [], conditions: [], stipulation: '#2', options: [], twins: [], zero_position: false, holes: [],
});

/** A line error in words. */
export function errorText(e: LineError): string {
  return e.line > 0 ? `Line ${e.line}: ${e.message}` : e.message;
}

class ProblemPage {
  form: FormProblem = emptyProblem();
  cat!: Catalogue;
  conditions: Condition[] = [];
  side: Side = 'white';
  /** The piece the next click on an empty square places ('' = removing). */
  piece = 'K';
  attrs: string[] = [];
  worker?: Worker;
  solveId = 0;
  started = 0;
  timer?: number;
  results: ProblemResult[] = [];
  /** The position shown instead of the diagram (a clicked move), and its ply element. */
  shown?: { board: BoardUnit[]; el: HTMLElement };
  readonly el = {
    board: h('div', { id: 'problem-board', class: 'pz-board', role: 'grid', 'aria-label': 'Board' }),
    boardNote: h('div', { id: 'board-note', class: 'board-note' }),
    sides: h('div', { class: 'pz-sides', role: 'radiogroup', 'aria-label': 'Colour' }),
    pieces: h('div', { id: 'piece-picker', class: 'pz-pieces' }),
    attrs: h('div', { class: 'pz-attrs' }),
    stip: h('input', { id: 'stipulation', 'aria-label': 'Stipulation', placeholder: '#2, h#3, ser-h=5…', size: '10' }),
    conds: h('div', { id: 'conditions', class: 'pz-conds' }),
    addCond: h('select', { id: 'add-condition', 'aria-label': 'Add a condition' }),
    condHelp: h('div', { id: 'condition-help', class: 'hint' }),
    opts: h('div', { id: 'options', class: 'pz-opts' }),
    twins: h('div', { id: 'twins', class: 'pz-twins' }),
    zero: h('input', { type: 'checkbox', id: 'twin-zero' }),
    addTwin: h('button', { id: 'add-twin', text: 'Add a twin' }),
    linkNote: h('div', { id: 'link-note', class: 'hint', role: 'status' }),
    author: h('input', { id: 'author', 'aria-label': 'Author', placeholder: 'Author' }),
    origin: h('input', { id: 'origin', 'aria-label': 'Source', placeholder: 'Source' }),
    title: h('input', { id: 'title', 'aria-label': 'Title', placeholder: 'Title' }),
    text: h('textarea', { id: 'popeye', rows: '10', spellcheck: 'false', 'aria-label': 'Popeye input' }),
    textError: h('div', { id: 'popeye-error', class: 'error', role: 'alert' }),
    solve: h('button', { id: 'solve', text: 'Solve' }),
    cancel: h('button', { id: 'cancel', text: 'Cancel', disabled: '' }),
    status: h('div', { id: 'solve-status', role: 'status' }),
    output: h('pre', { id: 'output', class: 'pz-output' }),
    copy: h('button', { id: 'copy', text: 'Copy the solution' }),
    tree: h('div', { id: 'solution-tree', class: 'pz-tree' }),
    save: h('button', { id: 'save', text: 'Save to the collection' }),
    saved: h('div', { id: 'save-report', role: 'status' }),
    stored: h('div', { id: 'stored', class: 'pz-stored' }),
  };

  async start() {
    app.replaceChildren(h('p', { text: 'Loading the solver…' }));
    await init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
    this.cat = JSON.parse(solverCatalogue()) as Catalogue;
    try {
      this.conditions = (await api('/api/conditions', conditionsList)).conditions.filter(c => !c.popeye.startsWith('('));
    } catch (e) {
      this.conditions = [];
      this.el.condHelp.textContent = `The conditions could not be loaded: ${message(e)}`;
    }
    this.layout();
    const id = document.body.dataset.arg;
    if (id) { await this.openStored(id); return; }
    const input = new URLSearchParams(location.hash.slice(1)).get('popeye');
    const link = fromProblemLink(location.hash);
    if (input) this.setText(input);
    else if (link) this.fromLink(link.fen, link.conditions);
    else this.formChanged();
  }

  /** "Set up as problem" (a game or the analysis board): the position's units, and its
   * conditions as Popeye writes them (one it cannot write is named, not dropped silently). */
  fromLink(fen: string, conditions: string[]) {
    this.form.pieces = unitsOfFen(fen);
    const notes: string[] = [];
    for (const name of conditions) {
      const t = JSON.parse(conditionPopeye(name)) as ConditionText;
      if ('popeye' in t) { const w = t.popeye.split(/\s+/); this.form.conditions.push({ name: w[0], params: w.slice(1) }); }
      else notes.push(`The condition “${name}” is left out: ${t.error}.`);
    }
    // Popeye's stipulation says who starts (White in direct play, Black in help play).
    if (fen.trim().split(/\s+/)[1] === 'b') notes.push('In the position set up, Black was to move: the stipulation decides who starts (Option HalfDuplex lets Black start a direct problem).');
    this.el.linkNote.textContent = notes.join(' ');
    this.formChanged();
  }

  /** A problem of the collection (its permalink): its input, and the server's solution. */
  async openStored(id: string) {
    try {
      const p = await api(`/api/problems/${encodeURIComponent(id)}`, problemFull);
      this.setText(p.input);
      const facts = [p.author, p.origin, p.date].filter(x => x).join(' · ');
      this.el.stored.replaceChildren(h('h2', { text: 'In the collection' }),
        h('p', { text: `${facts ? facts + ' — ' : ''}${statusText(p.status, p.solve_ms)}` }),
        ...(p.error ? [h('p', { class: 'error', text: p.error })] : []),
        ...(p.solution ? [h('pre', { id: 'stored-solution', class: 'pz-output', text: p.solution })] : []),
        h('p', {}, h('a', { href: `/api/problems/${id}/popeye`, text: 'Popeye input', download: `problem-${id}.txt` }), ' · ',
          h('a', { href: '/collection', text: 'the collection' })));
    } catch (e) {
      this.el.stored.replaceChildren(h('p', { class: 'error', text: `This problem could not be opened: ${message(e)}` }));
    }
  }

  async save() {
    this.el.saved.textContent = 'Saving…';
    try {
      showReport(this.el.saved, await api('/api/problems', importReport, this.el.text.value));
    } catch (e) {
      this.el.saved.replaceChildren(h('p', { class: 'error', text: `Not saved: ${message(e)}` }));
    }
  }

  layout() {
    const e = this.el;
    for (const s of ['white', 'black', 'neutral'] as Side[]) {
      const b = h('button', { class: 'pz-side', 'data-side': s, text: s[0].toUpperCase() + s.slice(1), 'aria-pressed': String(s === this.side) });
      b.onclick = () => { this.side = s; this.pickerState(); };
      e.sides.append(b);
    }
    for (const p of this.cat.pieces) {
      const b = h('button', { class: 'pz-pick', 'data-piece': p.letters, title: `${p.name} (${p.letters})`, 'aria-label': p.name });
      b.onclick = () => { this.piece = p.letters; this.pickerState(); };
      e.pieces.append(b);
    }
    const rm = h('button', { class: 'pz-pick', 'data-piece': '', id: 'remove-tool', text: '✕', title: 'remove a unit', 'aria-label': 'remove' });
    rm.onclick = () => { this.piece = ''; this.pickerState(); };
    e.pieces.append(rm);
    for (const a of this.cat.attributes) {
      const id = `attr-${a.toLowerCase()}`;
      const c = h('input', { type: 'checkbox', id });
      c.onchange = () => { this.attrs = this.cat.attributes.filter(x => (document.getElementById(`attr-${x.toLowerCase()}`) as HTMLInputElement).checked); };
      e.attrs.append(h('label', { class: 'check' }, c, ` ${a}`));
    }
    // Popeye's keyword first (what a composer looks for), the registry's name beside it.
    e.addCond.append(h('option', { value: '', text: 'Add a condition…' }));
    const byKeyword = [...this.conditions].sort((a, b) => a.popeye.localeCompare(b.popeye));
    for (const c of byKeyword) e.addCond.append(h('option', { value: c.popeye, text: `${c.popeye} (${c.name})`, title: c.summary }));
    e.addCond.onchange = () => {
      const c = this.conditions.find(x => x.popeye === e.addCond.value);
      e.addCond.value = '';
      if (!c) return;
      const words = c.popeye.split(/\s+/);
      this.form.conditions.push({ name: words[0], params: words.slice(1) });
      this.formChanged();
    };
    for (const o of this.cat.options) {
      const id = `opt-${o.name.toLowerCase()}`;
      const c = h('input', { type: 'checkbox', id, 'data-option': o.name });
      const row = h('label', { class: 'check', title: o.summary }, c, ` ${o.name}`);
      let val: HTMLInputElement | undefined;
      if (o.takes !== 'none') {
        val = h('input', { id: `${id}-value`, class: 'pz-optval', 'aria-label': `${o.name} ${o.takes === 'number' ? 'number' : 'squares'}`, size: '4', placeholder: o.takes === 'number' ? 'n' : 'squares' });
        val.oninput = () => { c.checked = val!.value.trim() !== ''; this.optionsFromForm(); };
      }
      c.onchange = () => this.optionsFromForm();
      e.opts.append(h('div', { class: 'pz-opt' }, row, ...(val ? [val] : [])));
    }
    e.stip.oninput = () => { this.form.stipulation = e.stip.value.trim(); this.formChanged(false); };
    e.zero.onchange = () => { this.form.zero_position = e.zero.checked; this.formChanged(); };
    e.addTwin.onclick = () => { this.form.twins.push({ continued: false, cmds: [this.newCmd(this.cat.twins[0].keyword)] }); this.formChanged(); };
    for (const k of ['author', 'origin', 'title'] as const) e[k].oninput = () => { this.form[k] = e[k].value; this.formChanged(false); };
    let pending: number | undefined;
    e.text.oninput = () => { clearTimeout(pending); pending = window.setTimeout(() => this.textChanged(), 250); };
    e.solve.onclick = () => this.solve();
    e.cancel.onclick = () => this.cancel();
    e.save.onclick = () => void this.save();
    e.copy.onclick = () => void navigator.clipboard?.writeText(e.output.textContent || '').catch(() => undefined);
    const clear = h('button', { id: 'clear-board', text: 'Clear the board' });
    clear.onclick = () => { this.form.pieces = []; this.formChanged(); };
    const diagram = h('button', { id: 'show-diagram', text: 'Back to the diagram' });
    diagram.onclick = () => this.showBoard();
    app.replaceChildren(h('div', { class: 'problems' },
      h('h1', { text: 'Problems' }),
      h('p', {}, h('a', { href: '/collection', text: 'The collection' })),
      e.stored,
      h('div', { class: 'pz-top' },
        h('section', { class: 'pz-left' }, e.board, e.boardNote, e.linkNote, h('div', { class: 'row' }, diagram, clear),
          h('div', { class: 'pz-setup' }, e.sides, e.pieces, e.attrs)),
        h('section', { class: 'pz-right' },
          h('label', { class: 'field' }, 'Stipulation ', e.stip),
          h('h2', { text: 'Conditions' }), e.conds, e.addCond, e.condHelp,
          h('h2', { text: 'Options' }), e.opts,
          h('h2', { text: 'Twins' }), e.twins,
          h('div', { class: 'pz-twin-foot' }, e.addTwin, h('label', { class: 'check', title: 'the first twin is a), the diagram itself is not solved' }, e.zero, ' ZeroPosition')),
          h('div', { class: 'pz-meta' }, e.author, e.origin, e.title),
          h('h2', { text: 'Popeye input' }), e.text, e.textError)),
      h('div', { class: 'row pz-solve' }, e.solve, e.cancel, e.status),
      h('div', { class: 'pz-results' },
        h('section', {}, h('h2', { text: 'Solution' }), e.tree),
        h('section', {}, h('div', { class: 'row' }, h('h2', { text: 'As the solver prints it' }), e.copy), e.output)),
      h('div', { class: 'row pz-solve' }, e.save), e.saved));
    this.pickerState();
  }

  pickerState() {
    for (const b of this.el.sides.querySelectorAll<HTMLElement>('.pz-side')) b.setAttribute('aria-pressed', String(b.dataset.side === this.side));
    for (const b of this.el.pieces.querySelectorAll<HTMLElement>('.pz-pick')) {
      b.setAttribute('aria-pressed', String(b.dataset.piece === this.piece));
      if (b.dataset.piece) b.replaceChildren(drawPiece({ square: '', side: this.side, piece: b.dataset.piece, attrs: [] }, this.cat));
    }
  }

  optionsFromForm() {
    const out: string[] = [];
    for (const o of this.cat.options) {
      const id = `opt-${o.name.toLowerCase()}`;
      const c = document.getElementById(id) as HTMLInputElement;
      if (!c.checked) continue;
      const v = (document.getElementById(`${id}-value`) as HTMLInputElement | null)?.value.trim();
      out.push(v ? `${o.name} ${v}` : o.name);
    }
    this.form.options = out;
    this.formChanged(false);
  }

  /** The form changed: the text follows (and the form's own fields when `redraw`). */
  formChanged(redraw = true) {
    this.el.text.value = writePopeye(this.form);
    // What the solver makes of it that the form does not hold (the diagram's holes), and
    // what it refuses (a twin not filled in yet, say).
    const again = (JSON.parse(readPopeye(this.el.text.value)) as Read[])[0];
    this.form.holes = again && 'problem' in again ? again.problem.holes : [];
    this.el.textError.textContent = again && 'error' in again ? errorText(again.error) : '';
    if (redraw) this.drawForm();
    else this.showBoard();
  }

  setText(t: string) {
    this.el.text.value = t;
    this.textChanged();
  }

  /** The text changed: read it; the form follows, or the error is shown with its line. */
  textChanged() {
    const reads = JSON.parse(readPopeye(this.el.text.value)) as Read[];
    const errors = reads.flatMap(r => 'error' in r ? [errorText(r.error)] : []);
    this.el.textError.textContent = errors.join('\n');
    const first = reads.find((r): r is { problem: FormProblem } => 'problem' in r);
    if (!errors.length && first) {
      this.form = first.problem;
      this.drawForm();
    }
    if (reads.length > 1) this.el.textError.textContent += `${errors.length ? '\n' : ''}${reads.length} problems: the form shows the first; Solve solves them all.`;
  }

  drawForm() {
    const f = this.form;
    const e = this.el;
    e.stip.value = f.stipulation;
    e.zero.checked = f.zero_position;
    this.drawTwins();
    e.author.value = f.author;
    e.origin.value = f.origin;
    e.title.value = f.title;
    e.conds.replaceChildren();
    f.conditions.forEach((c, i) => {
      const known = this.conditionOf(c);
      const params = h('input', { class: 'pz-params', 'aria-label': `${c.name} parameters`, placeholder: known?.params || 'parameters' });
      params.value = c.params.slice(known ? known.popeye.split(/\s+/).length - 1 : 0).join(' ');
      params.oninput = () => {
        const fixed = known ? known.popeye.split(/\s+/).slice(1) : [];
        f.conditions[i] = { name: c.name, params: [...fixed, ...params.value.split(/\s+/).filter(w => w)] };
        this.formChanged(false);
      };
      const rm = h('button', { class: 'link', text: 'remove', 'aria-label': `remove ${c.name}` });
      rm.onclick = () => { f.conditions.splice(i, 1); this.formChanged(); };
      // Titled as Popeye writes it (`Hole`), the registry's name (`trou`) beside it.
      e.conds.append(h('div', { class: 'pz-cond', 'data-condition': c.name, title: known ? `${known.name}: ${known.summary}` : '' },
        h('div', {}, h('strong', { class: 'pz-cond-title', text: known?.popeye || c.name }), ' ',
          h('span', { class: 'pz-cond-name', text: known?.name || '' }), ' ', rm),
        h('div', { class: 'hint', text: known?.summary || '' }), params));
    });
    for (const o of this.cat.options) {
      const id = `opt-${o.name.toLowerCase()}`;
      const given = f.options.find(x => x.split(/\s+/)[0] === o.name);
      (document.getElementById(id) as HTMLInputElement).checked = !!given;
      const v = document.getElementById(`${id}-value`) as HTMLInputElement | null;
      if (v) v.value = given ? given.split(/\s+/).slice(1).join(' ') : '';
    }
    this.showBoard();
  }

  /** A twinning command of `kind` with its fields' defaults (a choice's first word). */
  newCmd(kind: string): FormTwinCmd {
    const k = this.cat.twins.find(x => x.keyword === kind);
    return { kind, args: (k?.args ?? []).map(a => a.field === 'choice' ? a.choices[0] ?? '' : '') };
  }

  /** The twins as rows of controls: each twin its commands (a kind and its fields), with
   * buttons to add and remove them. A field edit writes the text; the rows are drawn
   * again when their shape changes or the text is read. */
  drawTwins() {
    const f = this.form;
    const box = this.el.twins;
    box.replaceChildren();
    if (!f.twins.length) box.append(h('p', { class: 'hint', text: 'No twins.' }));
    f.twins.forEach((t, i) => {
      const label = `Twin ${String.fromCharCode((f.zero_position ? 97 : 98) + i)})`;
      const cont = h('input', { type: 'checkbox', class: 'pz-twin-continued', 'aria-label': `${label} continues the previous twin` });
      cont.checked = t.continued;
      cont.onchange = () => { t.continued = cont.checked; this.formChanged(false); };
      const rm = h('button', { class: 'link pz-twin-remove', text: 'remove', 'aria-label': `remove ${label}` });
      rm.onclick = () => { f.twins.splice(i, 1); this.formChanged(); };
      const add = h('button', { class: 'link pz-twin-add-cmd', text: '+ another change', title: 'another change in this twin' });
      add.onclick = () => { t.cmds.push(this.newCmd(this.cat.twins[0].keyword)); this.formChanged(); };
      box.append(h('div', { class: 'pz-twin-row', 'data-twin': String(i) },
        h('div', { class: 'pz-twin-head' }, h('strong', { text: label }), ' ',
          h('label', { class: 'check', title: 'from the previous twin, not the diagram' }, cont, ' Continued'), ' ', rm),
        ...t.cmds.map((c, j) => this.twinCmdRow(t, c, j, label)), add));
    });
  }

  twinCmdRow(t: FormTwin, c: FormTwinCmd, j: number, label: string): HTMLElement {
    const kind = h('select', { class: 'pz-twin-kind', 'aria-label': `${label}: change ${j + 1}` });
    for (const k of this.cat.twins) kind.append(h('option', { value: k.keyword, text: k.keyword }));
    kind.value = c.kind;
    kind.onchange = () => { t.cmds[j] = this.newCmd(kind.value); this.formChanged(); };
    const fields = (this.cat.twins.find(k => k.keyword === c.kind)?.args ?? []).map((a, n) => {
      const name = `${label}: ${c.kind} ${a.label}`;
      let el: HTMLInputElement | HTMLSelectElement;
      if (a.field === 'choice' || a.field === 'piece') {
        el = h('select', { class: 'pz-twin-arg', 'data-arg': String(n), 'aria-label': name });
        if (a.field === 'piece') {
          el.append(h('option', { value: '', text: a.label }));
          for (const p of this.cat.pieces) el.append(h('option', { value: p.letters, text: `${p.letters} ${p.name}` }));
        }
        else for (const w of a.choices) el.append(h('option', { value: w, text: w }));
      } else {
        const hint = { square: 'e4', units: 'White Sa7 Black Ba5', conditions: 'Circe', stipulation: 'h#2' }[a.field];
        el = h('input', { class: `pz-twin-arg pz-twin-${a.field}`, 'data-arg': String(n), 'aria-label': name, placeholder: `${a.label} (${hint})`, size: a.field === 'square' ? '5' : '12' });
      }
      el.value = c.args[n] ?? '';
      el.oninput = () => { c.args[n] = el.value; this.formChanged(false); };
      return el;
    });
    const rm = h('button', { class: 'link', text: '✕', 'aria-label': `remove ${label} change ${j + 1}` });
    rm.onclick = () => { t.cmds.splice(j, 1); this.formChanged(); };
    return h('div', { class: 'pz-twin-cmd', 'data-cmd': String(j), 'data-kind': c.kind }, kind, ...fields, rm);
  }

  /** The registry's entry of a condition as read (the longest Popeye form it starts with). */
  conditionOf(c: { name: string; params: string[] }): Condition | undefined {
    const words = [c.name, ...c.params].map(w => w.toLowerCase());
    let best: Condition | undefined;
    for (const k of this.conditions) {
      const kw = k.popeye.toLowerCase().split(/\s+/);
      if (kw.every((w, i) => words[i] === w) && (!best || kw.length > best.popeye.split(/\s+/).length)) best = k;
    }
    return best;
  }

  showBoard(board?: BoardUnit[], el?: HTMLElement) {
    this.shown?.el.classList.remove('current');
    this.shown = board && el ? { board, el } : undefined;
    el?.classList.add('current');
    const units = board ?? this.form.pieces;
    this.el.boardNote.textContent = board ? `After ${el?.textContent ?? ''}` : 'The diagram: click a square to place or remove a unit.';
    drawBoard(this.el.board, units, this.cat, board ? undefined : sq => this.clickSquare(sq), board ? [] : this.form.holes);
  }

  clickSquare(sq: string) {
    const f = this.form;
    const at = f.pieces.findIndex(u => u.square === sq);
    const same = at >= 0 && f.pieces[at].piece === this.piece && f.pieces[at].side === this.side;
    if (at >= 0) f.pieces.splice(at, 1);
    if (this.piece && !same) f.pieces.push({ square: sq, side: this.side, piece: this.piece, attrs: [...this.attrs] });
    this.formChanged(false);
  }

  solve() {
    this.cancel(true);
    const id = ++this.solveId;
    this.el.output.textContent = '';
    this.el.tree.replaceChildren();
    this.results = [];
    this.started = performance.now();
    this.el.solve.setAttribute('disabled', '');
    this.el.cancel.removeAttribute('disabled');
    const tick = () => { this.el.status.textContent = `Solving… ${((performance.now() - this.started) / 1000).toFixed(1)} s`; };
    tick();
    this.timer = window.setInterval(tick, 100);
    const w = new Worker('/assets/problems-worker.js', { type: 'module' });
    this.worker = w;
    w.onmessage = (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      if (m.t === 'ready' || m.id !== id) return;
      if (m.t === 'text') { this.el.output.textContent += m.chunk; return; }
      this.finish();
      if (m.t === 'error') { this.el.status.textContent = `The solver stopped: ${m.message}`; return; }
      this.results = m.results;
      this.el.output.textContent = m.results.map(r => r.error ? errorText(r.error) + '\n' : r.text).join('');
      const refused = m.results.filter(r => r.error).length;
      this.el.status.textContent = `Solved in ${(m.ms / 1000).toFixed(2)} s${refused ? ` — ${refused} problem${refused > 1 ? 's' : ''} refused` : ''}`;
      this.drawTree();
    };
    w.onerror = ev => { this.finish(); this.el.status.textContent = `The solver stopped: ${ev.message}`; };
    w.postMessage({ t: 'solve', id, input: this.el.text.value } satisfies ToWorker);
  }

  finish() {
    clearInterval(this.timer);
    this.worker?.terminate();
    this.worker = undefined;
    this.el.solve.removeAttribute('disabled');
    this.el.cancel.setAttribute('disabled', '');
  }

  cancel(quiet = false) {
    if (!this.worker) return;
    const s = (performance.now() - this.started) / 1000;
    this.finish();
    this.solveId++;
    if (!quiet) this.el.status.textContent = `Cancelled after ${s.toFixed(1)} s`;
  }

  drawTree() {
    const root = this.el.tree;
    root.replaceChildren();
    this.results.forEach((r, i) => {
      if (this.results.length > 1) root.append(h('h3', { text: `Problem ${i + 1}` }));
      if (r.error) { root.append(h('p', { class: 'error', text: errorText(r.error) })); return; }
      for (const t of r.twins) {
        const box = h('div', { class: 'pz-twin' });
        if (t.label) {
          const label = h('button', { class: 'link pz-twin-label', text: t.label });
          label.onclick = () => this.showBoard(t.start, label);
          box.append(label);
        }
        if (!t.tree.length) box.append(h('p', { class: 'hint', text: 'No solution.' }));
        box.append(this.nodes(t.tree));
        root.append(box);
      }
      if (!r.finished) root.append(h('p', { class: 'hint', text: 'Partial solution (stopped by a limit).' }));
    });
  }

  nodes(ns: SolNode[]): HTMLElement {
    const ul = h('ul', { class: 'pz-nodes' });
    for (const n of ns) {
      const li = h('li', { class: `pz-node pz-${n.kind}`, 'data-kind': n.kind });
      li.append(h('span', { class: 'pz-kind', text: KIND_WORDS[n.kind] }));
      const num = n.text.match(/^\d+\.(\.\.)?/)?.[0] ?? '';
      if (num && n.plies.length === 1) li.append(h('span', { text: num }));
      for (const p of n.plies) {
        const b = h('button', { class: 'pz-ply', text: p.text, ...(p.board ? {} : { disabled: '', title: 'not shown on the board' }) });
        if (p.board) b.onclick = () => this.showBoard(p.board!, b);
        li.append(b, ' ');
      }
      const rest = marks(n.text);
      if (rest) li.append(h('span', { class: 'pz-marks', text: rest }));
      if (n.children.length) li.append(this.nodes(n.children));
      ul.append(li);
    }
    return ul;
  }
}

const KIND_WORDS: Record<SolNode['kind'], string> = {
  key: 'key', try: 'try', premature: 'too soon', refutation: 'refuted by', threat: 'threat', defence: '', answer: '', set: 'set play', line: '', setline: 'set play',
};

/** The marks after a tree line's move (`!`, `?`, `threat:`, `#`, `+`) in words and signs. */
function marks(text: string): string {
  const words = text.split(/\s+/).slice(1).filter(w => !/[a-h][1-8]/.test(w));
  return words.join(' ');
}

/** The units of a FEN's board part (orthodox letters; `N` is Popeye's `S`). */
export function unitsOfFen(fen: string): BoardUnit[] {
  const rows = fen.trim().split(/\s+/)[0].split('/');
  const out: BoardUnit[] = [];
  rows.slice(0, 8).forEach((row, r) => {
    let file = 0;
    for (let i = 0; i < row.length; i++) {
      const ch = row[i];
      if (/\d/.test(ch)) { let n = ch; while (/\d/.test(row[i + 1] ?? '')) n += row[++i]; file += Number(n); continue; }
      if (!/[a-z]/i.test(ch)) continue;
      const upper = ch.toUpperCase();
      const piece = upper === 'N' ? 'S' : upper;
      if (file < 8 && 'KQRBSP'.includes(piece)) out.push({ square: `${'abcdefgh'[file]}${8 - r}`, side: ch === upper ? 'white' : 'black', piece, attrs: [] });
      file++;
    }
  });
  return out;
}

async function main() {
  if (document.body.dataset.page === 'collection') {
    await init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
    await collectionPage(JSON.parse(solverCatalogue()) as Catalogue);
  } else {
    await new ProblemPage().start();
  }
}

main().catch(e => app.replaceChildren(h('p', { class: 'error', text: `The problems page could not start: ${message(e)}` })));
