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

/** A field's value in a position set up by hand (rules' `setup::FieldValue`). */
export type FieldValue = boolean | number | string;
/** A position set up by hand (rules' `setup::Position`): the units and the state fields. */
export type SetupPosition = {
  units: { square: string; colour: 'w' | 'b' | 'c'; letter: string }[];
  fields: Record<string, FieldValue>;
};
/** The rules' verdict on it (wasm `setupFen`): its FEN, or why it is refused, in words. */
export type SetUp = { fen: string } | { refused: string };

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
