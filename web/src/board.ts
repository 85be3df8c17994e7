// The game board: a chessgroundx board (coordinates, last move, check, premove) with an
// overlay for the choices made on the board: squares offered (a rebirth square...) and
// the off-board zone a selected piece may leave through.
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type { Key } from 'chessgroundx/types';
import { h } from './dom';
import { makeBoard, showUnits } from './position';
import type { PieceLetters, Units } from './position';
import type { Side } from './protocol';

export type BoardEvents = {
  /** A piece was moved (dragged or clicked) from `orig` to `dest` on the board. */
  move(orig: Key, dest: Key): void;
  /** A square was touched (pressed or clicked). */
  select(key: Key): void;
  /** A piece was dragged from `orig` and dropped off the board. */
  dropOff(orig: Key): void;
};

const FILES = 'abcdefgh';

export class Board {
  readonly cg: Api;
  readonly wrap: HTMLElement;
  private readonly overlay: HTMLElement;
  orientation: Side = 'white';

  constructor(box: HTMLElement, pieces: PieceLetters, fen: string, private readonly on: BoardEvents, extra: Config = {}) {
    const el = h('div', { class: 'board-box', id: 'board' });
    this.overlay = h('div', { class: 'board-overlay', id: 'board-overlay' });
    this.wrap = h('div', { class: 'board-wrap' }, el, this.overlay);
    box.append(this.wrap);
    this.cg = makeBoard(el, pieces, fen, {
      coordinates: true,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.on.move(o, d) } },
      draggable: { enabled: true, showGhost: true, deleteOnDropOff: false },
      selectable: { enabled: true },
      premovable: { enabled: false, premoveFunc: (_b, key) => allSquares().filter(k => k !== key) },
      events: { select: k => this.on.select(k) },
      ...extra,
    });
    // A drag that ends off the board: chessgroundx puts the piece back; we are told first
    // (capture phase), while the drag is still current.
    const end = (x: number, y: number) => {
      const cur = this.cg.state.draggable.current;
      if (!cur || cur.orig === 'a0' || !cur.started) return;
      const r = el.getBoundingClientRect();
      const off = x < r.left || x > r.right || y < r.top || y > r.bottom;
      if (off) { const orig = cur.orig; setTimeout(() => this.on.dropOff(orig), 0); }
    };
    window.addEventListener('mouseup', e => end(e.clientX, e.clientY), true);
    window.addEventListener('touchend', e => { const t = e.changedTouches[0]; if (t) end(t.clientX, t.clientY); }, true);
  }

  setOrientation(o: Side) {
    this.orientation = o;
    this.cg.set({ orientation: o });
  }

  show(units: Units) {
    showUnits(this.cg, units);
  }

  /** Position of a square in the overlay, as percentages. */
  private place(key: string): { left: string; top: string } {
    const f = FILES.indexOf(key[0]), r = Number(key[1]) - 1;
    const col = this.orientation === 'white' ? f : 7 - f;
    const row = this.orientation === 'white' ? 7 - r : r;
    return { left: `${col * 12.5}%`, top: `${row * 12.5}%` };
  }

  /** Marks squares to choose from; a click on one calls `pick`. */
  offerSquares(squares: { key: string; label: string }[], pick: (key: string) => void) {
    this.clearOffers();
    for (const s of squares) {
      const p = this.place(s.key);
      const m = h('button', { class: 'offer-square', 'data-square': s.key, title: s.label, 'aria-label': s.label, style: `left:${p.left};top:${p.top}` });
      m.onclick = e => { e.stopPropagation(); pick(s.key); };
      this.overlay.append(m);
    }
  }

  /** Marks the board's edges as the way off the board for the piece on `from`. */
  offerEdges(from: string, label: string, pick: () => void) {
    this.clearOffers();
    for (const side of ['top', 'bottom', 'left', 'right']) {
      const z = h('button', { class: `exit-zone exit-${side}`, 'data-exit': from, title: label, 'aria-label': label });
      z.onclick = e => { e.stopPropagation(); pick(); };
      this.overlay.append(z);
    }
    const p = this.place(from);
    this.overlay.append(h('div', { class: 'exit-from', style: `left:${p.left};top:${p.top}` }));
  }

  clearOffers() {
    this.overlay.replaceChildren();
  }
}

function allSquares(): Key[] {
  const out: Key[] = [];
  for (const f of FILES) for (let r = 1; r <= 8; r++) out.push(`${f}${r}` as Key);
  return out;
}
