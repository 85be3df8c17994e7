// The analysis board's address for a game at one of its plies (the game page's "Analyse",
// the archive's). The analysis page reads these fields back (`main.ts`).
import type { StateMsg } from '../protocol';

export function analysisLink(st: StateMsg, ply: number): string {
  const q = new URLSearchParams({ variant: st.variant, fen: st.start_fen, moves: st.moves.map(m => m.uci).join(' '), ply: String(ply), options: JSON.stringify(st.setup ?? {}) });
  return '/analysis#' + q.toString();
}
