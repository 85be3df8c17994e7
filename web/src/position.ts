// Positions on the board: units read from a FEN and changed by the parts of canonical
// turns (`-e2:wp +e4:wp ; ...`), and their drawing on a chessgroundx board.
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type { Key, Piece, Role } from 'chessgroundx/types';

export type Colour = 'w' | 'b' | 'c';
export type Unit = { colour: Colour; letter: string };
export type Units = Map<string, Unit>;

/** A variant's pieces as its descriptor gives them: the letter and, for a piece with a
 *  checkered form, that form's FEN letter. */
export type PieceLetters = readonly { letter: string; shared: string | null }[];

/** The units of a FEN's board; a letter of a piece's checkered form (the descriptor's
 *  `shared`) is that piece, checkered. */
export function unitsFromFen(pieces: PieceLetters, fen: string): Units {
  const checkered = new Map(pieces.filter(p => p.shared).map(p => [p.shared!.toLowerCase(), p.letter]));
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
      const shared = checkered.get(lower);
      if (shared) units.set(sq, { colour: 'c', letter: shared });
      else units.set(sq, { colour: ch === lower ? 'b' : 'w', letter: lower });
      file++;
    }
  });
  return units;
}

function isColour(c: string): c is Colour {
  return c === 'w' || c === 'b' || c === 'c';
}

/** Applies one part of a canonical turn (`-e2:wp +e4:wp`) to the units. */
export function applyPart(units: Units, part: string) {
  const toks = part.trim().split(/\s+/);
  for (const t of toks) if (t.startsWith('-')) units.delete(t.slice(1, 3));
  for (const t of toks) if (t.startsWith('+')) {
    const [sq, cl] = t.slice(1).split(':');
    if (cl && isColour(cl[0])) units.set(sq, { colour: cl[0], letter: cl.slice(1) });
  }
}

export function applyTurn(units: Units, canonical: string) {
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

export function showUnits(cg: Api, units: Units) {
  const diff = new Map<Key, Piece | undefined>();
  for (const k of cg.state.boardState.pieces.keys()) diff.set(k, undefined);
  for (const [k, p] of cgPieces(units)) diff.set(k, p);
  cg.setPieces(diff);
}

export function makeBoard(el: HTMLElement, pieces: PieceLetters, fen: string, extra: Config = {}): Api {
  const cg = Chessground(el, { fen: '8/8/8/8/8/8/8/8', coordinates: false, autoCastle: false, animation: { enabled: true, duration: 150 }, ...extra });
  showUnits(cg, unitsFromFen(pieces, fen));
  return cg;
}
