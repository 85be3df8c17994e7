// The rules compiled to WebAssembly (crates/wasm), on the game page: the turns the board
// offers (its legal-move dots, the turn builder's choices) are computed here, in the
// browser, on a copy of the game replayed from its start. The server stays the referee: it
// checks every move it is sent, and sends its own list of legal turns, which the page uses
// until the module has loaded, and instead of a copy that disagrees with it (said on the
// console: a disagreement is a bug in one of the two builds).
import init, { WasmGame } from '../../crates/server/assets/wasm/chimere_wasm.js';
import type { Turn } from './protocol';

let loading: Promise<boolean> | undefined;

/** Loads the module once; false when it cannot run here. */
export function loadRules(): Promise<boolean> {
  loading ??= init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' }).then(() => true, () => false);
  return loading;
}

/** The game as played so far: a variant with its options, a start and the played turns. */
export type GameLine = { variant: string; options: unknown; startFen: string; moves: string[] };

/** A copy of one game's rules, kept in step with its moves. */
export class LocalRules {
  private game: WasmGame | null = null;
  private key = '';
  private played: string[] = [];

  /** The legal turns after `line`'s moves, or null when the copy cannot say (module not
   *  loaded, a position or a move it refuses). */
  legal(line: GameLine): Turn[] | null {
    try {
      this.follow(line);
      return this.game ? (JSON.parse(this.game.state()).legal as Turn[]) : null;
    } catch {
      this.drop();
      return null;
    }
  }

  /** Brings the copy to `line`: more moves are played on it, anything else replays it. */
  private follow(line: GameLine) {
    const key = `${line.variant}\n${JSON.stringify(line.options ?? {})}\n${line.startFen}`;
    const extends_ = this.played.every((m, i) => line.moves[i] === m);
    if (!this.game || key !== this.key || !extends_) {
      this.drop();
      this.game = new WasmGame(line.variant, JSON.stringify(line.options ?? {}), line.startFen);
      this.key = key;
    }
    for (const m of line.moves.slice(this.played.length)) {
      this.game.play(m);
      this.played.push(m);
    }
  }

  private drop() {
    this.game?.free();
    this.game = null;
    this.played = [];
  }
}

/** The same turns (token, notation, canonical form and structure), whatever their order. */
export function sameTurns(a: Turn[], b: Turn[]): boolean {
  // Objects written with their keys in order: the two sides' JSON need not agree on it.
  const sorted = (_: string, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v;
  const key = (t: Turn) => JSON.stringify([t.uci, t.notation, t.canonical, t.shape], sorted);
  if (a.length !== b.length) return false;
  const s = new Set(a.map(key));
  return b.every(t => s.has(key(t)));
}
