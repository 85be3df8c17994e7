// The analysis board's position editor: units placed on the board from a palette of every
// unit the variant has (its descriptor's pieces, in each colour, and their checkered form
// where they have one), the variant's state fields as form controls (the descriptor's
// `setup` list: side to move, castling, en passant, Checkered's stage, Dynamo's last
// turn…), and the rules' verdict on the position in words (crates/rules setup.rs, through
// the WebAssembly `setupFen`). Nothing here names a variant or writes a FEN.
import type { Key } from 'chessgroundx/types';
import { setupFen, setupOf } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import type { Board } from '../board';
import { h, message } from '../dom';
import type { Colour, Unit, Units } from '../position';
import type { FieldSpec, VariantDescriptor } from '../protocol';
import type { FieldValue, Options, SetUp, SetupPosition } from './wasm-types';

type Tool = { kind: 'move' } | { kind: 'remove' } | { kind: 'unit'; unit: Unit };

export type EditorHost = {
  variant: string;
  options: Options;
  descriptor: VariantDescriptor;
  board: Board;
  /** The position set up, accepted by the rules. */
  done(fen: string): void;
  cancel(): void;
};

const SQUARES = [...'12345678'].flatMap(r => [...'abcdefgh'].map(f => f + r));
const COLOUR_WORDS: Record<Colour, string> = { w: 'white', b: 'black', c: 'checkered' };

/** A piece picture as the board draws it. */
function picture(u: Unit): HTMLElement {
  const piece = document.createElement('piece');
  piece.className = `${(u.colour === 'c' ? 'p' : '') + u.letter}-piece ${u.colour === 'b' ? 'black' : 'white'}`;
  return h('span', { class: 'cg-wrap picture' }, piece);
}

export class Editor {
  units: Units = new Map();
  fields: Record<string, FieldValue> = {};
  tool: Tool = { kind: 'move' };
  verdict: SetUp = { refused: '' };
  readonly panel = h('div', { id: 'setup', class: 'setup' });
  private readonly palette = h('div', { id: 'palette', class: 'palette', role: 'toolbar', 'aria-label': 'Units' });
  private readonly form = h('div', { id: 'setup-fields', class: 'setup-fields' });
  private readonly verdictEl = h('div', { id: 'setup-error', class: 'error', role: 'alert' });

  constructor(private readonly host: EditorHost, fen: string) {
    this.load(fen);
    const button = (id: string, text: string, f: () => void, cls = '') => {
      const b = h('button', { id, text, class: cls });
      b.onclick = f;
      return b;
    };
    this.panel.append(
      h('p', { class: 'setup-help', text: 'Choose a unit, then touch squares to place it (touch it again to remove it), or drag it onto the board. With "Move", drag units; drag one off the board to remove it.' }),
      this.palette,
      h('div', { class: 'setup-actions' },
        button('setup-clear', 'Clear board', () => this.clear()),
        button('setup-start', 'Start position', () => this.load('')),
        button('setup-done', 'Done', () => this.finish(), 'primary'),
        button('setup-cancel', 'Cancel', () => this.host.cancel())),
      this.verdictEl,
      this.form);
    this.renderPalette();
    this.renderForm();
    this.refresh();
  }

  /** The position of `fen` (empty: the variant's start) as the rules read it into the form. */
  load(fen: string) {
    const p = JSON.parse(setupOf(this.host.variant, JSON.stringify(this.host.options), fen)) as SetupPosition;
    this.units = new Map(p.units.map(u => [u.square, { colour: u.colour, letter: u.letter }]));
    this.fields = p.fields;
    if (this.panel.isConnected) { this.renderForm(); this.refresh(); }
  }

  /** An empty board; the fields that refer to the board (rights, squares) emptied too. */
  clear() {
    this.units.clear();
    for (const f of this.host.descriptor.setup) {
      if (f.type === 'bool') this.fields[f.key] = false;
      else if (f.type === 'square' || f.type === 'files') this.fields[f.key] = '';
    }
    this.renderForm();
    this.refresh();
  }

  position(): SetupPosition {
    return { units: [...this.units].map(([square, u]) => ({ square, colour: u.colour, letter: u.letter })), fields: this.fields };
  }

  /** Shows the units, lets the board move them freely, asks the rules for their verdict. */
  refresh() {
    const cg = this.host.board.cg;
    this.host.board.show(this.units);
    const moving = this.tool.kind === 'move';
    cg.set({ lastMove: undefined, check: false, movable: { free: moving, color: moving ? 'both' : undefined, dests: new Map() } });
    cg.setAutoShapes([]);
    try {
      this.verdict = JSON.parse(setupFen(this.host.variant, JSON.stringify(this.host.options), JSON.stringify(this.position()))) as SetUp;
    } catch (e) {
      this.verdict = { refused: message(e) };
    }
    this.verdictEl.textContent = 'refused' in this.verdict ? this.verdict.refused : '';
    const d = document.body.dataset;
    d.setupFen = 'fen' in this.verdict ? this.verdict.fen : '';
    d.setupUnits = String(this.units.size);
  }

  finish() {
    this.refresh();
    if ('fen' in this.verdict) this.host.done(this.verdict.fen);
  }

  // ---------- the board ----------

  /** A square touched: the chosen unit placed (or taken away if it is already there). */
  select(key: Key) {
    const t = this.tool;
    if (t.kind === 'move') return;
    const here = this.units.get(key);
    if (t.kind === 'remove' || (here && here.colour === t.unit.colour && here.letter === t.unit.letter)) this.units.delete(key);
    else this.units.set(key, { ...t.unit });
    this.refresh();
  }

  /** A unit dragged to another square (it replaces what stood there). */
  moved(orig: Key, dest: Key) {
    const u = this.units.get(orig);
    if (u) { this.units.delete(orig); this.units.set(dest, u); }
    this.refresh();
  }

  /** A unit dragged off the board. */
  droppedOff(orig: Key) {
    this.units.delete(orig);
    this.refresh();
  }

  /** A unit dragged from the palette: placed on the square where it is let go. */
  private dragFromPalette(unit: Unit, down: PointerEvent) {
    if (down.button !== 0) return;
    const ghost = picture(unit);
    ghost.classList.add('palette-ghost');
    let moved = false;
    const follow = (e: PointerEvent) => {
      if (!moved && Math.hypot(e.clientX - down.clientX, e.clientY - down.clientY) < 8) return;
      if (!moved) { moved = true; document.body.append(ghost); }
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
    };
    const drop = (e: PointerEvent) => {
      window.removeEventListener('pointermove', follow);
      window.removeEventListener('pointerup', drop);
      window.removeEventListener('pointercancel', drop);
      ghost.remove();
      const key = moved && e.type === 'pointerup' ? this.squareAt(e.clientX, e.clientY) : undefined;
      if (!key) return;
      this.units.set(key, { ...unit });
      this.refresh();
    };
    window.addEventListener('pointermove', follow);
    window.addEventListener('pointerup', drop);
    window.addEventListener('pointercancel', drop);
  }

  /** The square under a point of the page (the board's box read now: the page may
   * have scrolled since the board last measured itself). */
  private squareAt(x: number, y: number): Key | undefined {
    const el = this.host.board.wrap.querySelector('cg-board');
    if (!el) return undefined;
    const r = el.getBoundingClientRect();
    const col = Math.floor(((x - r.left) / r.width) * 8), row = Math.floor(((y - r.top) / r.height) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return undefined;
    const white = this.host.board.orientation === 'white';
    return `${'abcdefgh'[white ? col : 7 - col]}${white ? 8 - row : row + 1}` as Key;
  }

  // ---------- the palette and the form ----------

  renderPalette() {
    const p = this.palette;
    p.replaceChildren();
    const tool = (t: Tool, label: string, content: Node | string, attrs: Record<string, string>) => {
      const b = h('button', { class: 'palette-tool', title: label, 'aria-label': label, 'aria-pressed': 'false', ...attrs }, content);
      b.onclick = () => {
        this.tool = t;
        for (const x of p.querySelectorAll('button')) x.setAttribute('aria-pressed', String(x === b));
        this.refresh();
      };
      if (t.kind === this.tool.kind && (t.kind !== 'unit' || this.tool.kind !== 'unit' || t.unit === this.tool.unit)) b.setAttribute('aria-pressed', 'true');
      p.append(b);
    };
    tool({ kind: 'move' }, 'Move units', '✥', { 'data-tool': 'move' });
    tool({ kind: 'remove' }, 'Remove units', '✕', { 'data-tool': 'remove' });
    const colours: Colour[] = ['w', 'b', 'c'];
    for (const colour of colours) {
      for (const piece of this.host.descriptor.pieces) {
        if (colour === 'c' && !piece.shared) continue;
        const unit: Unit = { colour, letter: piece.letter };
        tool({ kind: 'unit', unit }, `${COLOUR_WORDS[colour]} ${piece.name}`, picture(unit), { 'data-colour': colour, 'data-letter': piece.letter });
        (p.lastElementChild as HTMLElement).onpointerdown = e => this.dragFromPalette(unit, e);
      }
    }
  }

  renderForm() {
    const f = this.form;
    f.replaceChildren();
    for (const spec of this.host.descriptor.setup) f.append(this.control(spec));
  }

  private set(key: string, v: FieldValue) {
    this.fields[key] = v;
    this.refresh();
  }

  /** The form control of a field, by its kind. */
  private control(spec: FieldSpec): HTMLElement {
    const v = this.fields[spec.key];
    const attrs = { 'data-field': spec.key, 'aria-label': spec.label };
    switch (spec.type) {
      case 'bool': {
        const input = h('input', { type: 'checkbox', ...attrs });
        input.checked = v === true;
        input.onchange = () => this.set(spec.key, input.checked);
        return h('label', { class: 'setup-field setup-bool' }, input, ' ' + spec.label);
      }
      case 'number': {
        const input = h('input', { type: 'number', min: String(spec.min), max: String(spec.max), ...attrs });
        input.value = String(typeof v === 'number' ? v : spec.min);
        input.onchange = () => {
          const n = Math.round(Number(input.value));
          this.set(spec.key, Number.isFinite(n) ? Math.max(spec.min, Math.min(spec.max, n)) : spec.min);
          input.value = String(this.fields[spec.key]);
        };
        return h('label', { class: 'setup-field' }, spec.label + ' ', input);
      }
      case 'choice':
      case 'square': {
        const sel = h('select', attrs);
        const options = spec.type === 'choice' ? spec.choices.map(c => [c[0], c[1]]) : [['', '—'], ...SQUARES.map(s => [s, s])];
        for (const [value, text] of options) sel.append(h('option', { value, text }));
        sel.value = typeof v === 'string' ? v : options[0][0];
        sel.onchange = () => this.set(spec.key, sel.value);
        return h('label', { class: 'setup-field' }, spec.label + ' ', sel);
      }
      case 'files': {
        const box = h('fieldset', { class: 'setup-field setup-files', 'data-field': spec.key }, h('legend', { text: spec.label }));
        const on = typeof v === 'string' ? v : '';
        for (const file of 'abcdefgh') {
          const input = h('input', { type: 'checkbox', 'data-file': file, 'aria-label': `${spec.label}: ${file}` });
          input.checked = on.includes(file);
          input.onchange = () => {
            const cur = typeof this.fields[spec.key] === 'string' ? String(this.fields[spec.key]) : '';
            const next = [...'abcdefgh'].filter(x => (x === file ? input.checked : cur.includes(x))).join('');
            this.set(spec.key, next);
          };
          box.append(h('label', {}, input, file));
        }
        return box;
      }
    }
  }
}
