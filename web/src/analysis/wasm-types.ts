// The shapes the WebAssembly rules and engine answer in (crates/wasm: session.rs `State`,
// `Turn`; analysis.rs `Step`, `Line`), and the messages between the page and its worker.
import type { Turn, VariantDescriptor } from '../protocol';

export type Options = { randomness?: number; seed?: number; params?: [string, string][]; conditions?: string[]; chess960?: boolean };

/** The position, as `WasmGame.state()` gives it. */
export type State = {
  variant: string;
  descriptor: VariantDescriptor;
  fen: string;
  side: 'white' | 'black';
  ply: number;
  in_check: boolean;
  result: 'ongoing' | 'white' | 'black' | 'draw';
  reason: string;
  legal: Turn[];
};

export type Score = { cp: number } | { mate: number };

/** One engine line (side to move's view). */
export type Line = { rank: number; depth: number; score: Score; uci: string[]; notation: string[] };

/** What one analysis slice found. */
export type Step = { depth: number; lines: Line[]; fresh: boolean; done: boolean; nodes: number; ms: number };

/** The position to analyse: the root FEN (empty: the start) and the moves from it. */
export type Job = { id: number; variant: string; options: Options; fen: string; moves: string[]; multipv: number };

export type ToWorker = { t: 'analyse'; job: Job } | { t: 'stop' };
export type FromWorker =
  | { t: 'ready' }
  | { t: 'lines'; id: number; step: Step }
  | { t: 'stopped'; id: number }
  | { t: 'error'; id: number; message: string };
