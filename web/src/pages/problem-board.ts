// The problems page's board and its Popeye text: a plain grid of squares (fairy units are
// drawn as their Popeye letters, orthodox ones with the board's piece pictures, neutral
// ones half white, half black), and the form written as Popeye input.
import { h } from '../dom';
import type { BoardUnit, Catalogue, FormProblem, FormTwin } from '../problems/wasm-types';

/** Popeye letters of the orthodox pieces → the picture set's role letters. */
const PICTURES: Record<string, string> = { K: 'k', Q: 'q', R: 'r', B: 'b', S: 'n', P: 'p' };

export function pieceName(letters: string, cat: Catalogue): string {
  return cat.pieces.find(p => p.letters === letters)?.name ?? letters;
}

/** A unit's picture (or letters), named on hover. */
export function drawPiece(u: BoardUnit, cat: Catalogue): HTMLElement {
  const name = `${u.side} ${u.attrs.map(a => a.toLowerCase() + ' ').join('')}${pieceName(u.piece, cat)}`;
  const role = PICTURES[u.piece];
  const el = h('span', { class: `cg-wrap pz-unit ${u.side}${role ? '' : ' letters'}${u.attrs.length ? ' marked' : ''}`, title: name, 'data-piece': u.piece, 'data-side': u.side });
  if (role) {
    // chessgroundx's piece element, so the board's pictures (pieces.css) apply.
    const p = document.createElement('piece');
    p.className = `${role}-piece ${u.side === 'black' ? 'black' : 'white'}`;
    el.append(p);
  }
  else el.append(h('span', { text: u.piece }));
  return el;
}

/** Draws `units` on the grid; `click` (a square's name) when the squares take clicks. */
export function drawBoard(box: HTMLElement, units: BoardUnit[], cat: Catalogue, click?: (sq: string) => void, holes: string[] = []) {
  box.replaceChildren();
  box.classList.toggle('editing', !!click);
  for (let r = 7; r >= 0; r--) {
    for (let f = 0; f < 8; f++) {
      const sq = `${'abcdefgh'[f]}${r + 1}`;
      const u = units.find(x => x.square === sq);
      const hole = !u && holes.includes(sq);
      const cell = h(click ? 'button' : 'div', { class: `pz-sq ${(r + f) % 2 ? 'light' : 'dark'}${hole ? ' hole' : ''}`, 'data-square': sq, 'aria-label': u ? `${sq}: ${u.side} ${pieceName(u.piece, cat)}` : hole ? `${sq}: a hole` : sq });
      if (u) cell.append(drawPiece(u, cat));
      if (click) cell.onclick = () => click(sq);
      box.append(cell);
    }
  }
}

/** The form as Popeye input. */
export function writePopeye(f: FormProblem): string {
  const lines = ['BeginProblem'];
  for (const [k, v] of [['Title', f.title], ['Author', f.author], ['Origin', f.origin]] as const) {
    for (const l of v.split('\n').filter(x => x.trim())) lines.push(`${k} ${l.trim()}`);
  }
  for (const c of f.conditions) lines.push(`Condition ${[c.name, ...c.params].join(' ')}`);
  if (f.pieces.length) {
    // Each colour word starts a group: units with attributes get a group of their own.
    const groups: string[] = [];
    let key = '';
    const word = { white: 'White', black: 'Black', neutral: 'Neutral' };
    const order = { white: 0, black: 1, neutral: 2 };
    const units = [...f.pieces].sort((a, b) => order[a.side] - order[b.side] || a.attrs.length - b.attrs.length);
    for (const u of units) {
      const k = `${u.side} ${u.attrs.join(' ')}`;
      if (k !== key || u.attrs.length) { groups.push([word[u.side], ...u.attrs].join(' ')); key = k; }
      groups.push(`${u.piece}${u.square}`);
    }
    lines.push(`Pieces ${groups.join(' ')}`);
  }
  if (f.stipulation) lines.push(`Stipulation ${f.stipulation}`);
  if (f.options.length) lines.push(`Option ${f.options.join(' ')}`);
  f.twins.forEach((t, i) => lines.push(twinLine(t, f.zero_position && i === 0)));
  lines.push('EndProblem');
  return lines.join('\n') + '\n';
}


/** A twin as one Popeye line (`ZeroPosition` for the first when the diagram is not solved);
 * empty fields are left out (the reader then names what is missing). */
export function twinLine(t: FormTwin, zero = false): string {
  const words = [zero ? 'ZeroPosition' : 'Twin', ...(t.continued ? ['Continued'] : [])];
  for (const c of t.cmds) words.push(c.kind, ...c.args.map(a => a.trim()).filter(a => a));
  return words.join(' ');
}
