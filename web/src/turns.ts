// The turn builder: a turn of several parts (UCI parts joined by commas) is entered part
// by part; the builder keeps the parts chosen so far and tells which parts may follow,
// from the legal turns the server sent.
import type { Dests, Key } from 'chessgroundx/types';
import type { Turn } from './protocol';

export const partsOf = (t: Turn): string[] => t.uci.split(',');

/** A part that is not a move from one square to another (a pass, a switch, an exit). */
export const isSpecialPart = (p: string): boolean => p === '0000' || p.endsWith('--');

export class TurnBuilder {
  prefix: string[] = [];
  constructor(public legal: Turn[] = []) {}

  reset(legal?: Turn[]) {
    if (legal) this.legal = legal;
    this.prefix = [];
  }

  /** The legal turns that begin with the parts chosen so far. */
  candidates(): Turn[] {
    return this.legal.filter(t => { const p = partsOf(t); return this.prefix.every((x, i) => p[i] === x); });
  }

  /** The parts that may come next, and the turn complete with the parts so far (if any). */
  next(): { next: string[]; complete: Turn | undefined } {
    const c = this.candidates();
    const n = this.prefix.length;
    const next = [...new Set(c.filter(t => partsOf(t).length > n).map(t => partsOf(t)[n]))];
    const complete = c.find(t => partsOf(t).length === n);
    return { next, complete };
  }

  /** The board moves of the next part, by origin square. */
  dests(): Dests {
    const d: Dests = new Map();
    for (const p of this.next().next) {
      if (isSpecialPart(p)) continue;
      const o = p.slice(0, 2) as Key, t = p.slice(2, 4) as Key;
      const list = d.get(o) || [];
      if (!list.includes(t)) list.push(t);
      d.set(o, list);
    }
    return d;
  }

  /** The next parts from `orig` to `dest` (several when a choice follows: promotion...). */
  partsBetween(orig: Key, dest: Key): string[] {
    return this.next().next.filter(p => !isSpecialPart(p) && p.slice(0, 4) === orig + dest);
  }

  /** The turn whose next part is `part` (for its notation). */
  turnWith(part: string): Turn | undefined {
    return this.candidates().find(x => partsOf(x)[this.prefix.length] === part);
  }

  /**
   * Adds a part: 'complete' when it ends the only possible turn (the turn to send is
   * `turn()`), 'more' when the turn may go on, 'illegal' when no legal turn has it.
   */
  take(part: string): 'complete' | 'more' | 'illegal' {
    if (!this.turnWith(part)) return 'illegal';
    this.prefix.push(part);
    const { next, complete } = this.next();
    return complete && !next.length ? 'complete' : 'more';
  }

  turn(): string {
    return this.prefix.join(',');
  }
}
