/* tslint:disable */
/* eslint-disable */

/**
 * The engine's analysis of one position, run in slices.
 */
export class WasmAnalysis {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The position reached from `fen` (empty: the start) by `moves` (JSON array of turns),
     * with `multipv` lines (1-5) and a table of `table_mb` MB.
     */
    constructor(variant: string, options: string, fen: string, moves: string, multipv: number, table_mb: number);
    /**
     * Searches for about `budget_ms` and returns JSON of [`analysis::Step`].
     */
    step(budget_ms: number): string;
}

/**
 * A game of any variant.
 */
export class WasmGame {
    free(): void;
    [Symbol.dispose](): void;
    fen(): string;
    /**
     * `options`: JSON of [`Options`] (`""` for the defaults); `fen`: empty for the start.
     * An error carries the rules' one-line reason.
     */
    constructor(variant: string, options: string, fen: string);
    /**
     * Perft leaves (a number: exact below 2^53).
     */
    perft(depth: number, bulk: boolean): number;
    /**
     * Plays a turn (UCI token, canonical form or notation); JSON of the [`session::Turn`].
     */
    play(turn: string): string;
    /**
     * The position as JSON ([`session::State`]).
     */
    state(): string;
    /**
     * Takes back the last turn; JSON of it, or `undefined` at the start.
     */
    undo(): string | undefined;
}

/**
 * [`bench_depth`] for the page.
 */
export function benchDepth(variant: string, depth: number): number;

/**
 * The bench positions as JSON: `[{variant, conditions, label, fen, depth}]`.
 */
export function benchPositions(): string;

/**
 * A game's fairy condition (a `--condition` name) as Popeye input writes it: JSON of
 * [`solve::ConditionText`].
 */
export function conditionPopeye(name: string): string;

/**
 * Reads a Popeye input: JSON array of [`solve::Read`] (a problem for the form, or the
 * error naming its line).
 */
export function readPopeye(input: string): string;

/**
 * A position set up by hand (`position`: JSON of `chimere_rules::setup::Position`),
 * checked by the rules: JSON `{"fen": …}` or `{"refused": "<why, in words>"}`.
 */
export function setupFen(variant: string, options: string, position: string): string;

/**
 * The position editor's form of a position (`fen` empty: the start), as JSON of
 * `chimere_rules::setup::Position`.
 */
export function setupOf(variant: string, options: string, fen: string): string;

/**
 * Solves every problem of a Popeye input on this thread (the page runs it in a Web
 * Worker and terminates the worker to cancel), with a table of `hash_mb` MB; `sink.text`
 * gets the solver's text as it is written. JSON array of [`solve::ProblemResult`].
 */
export function solvePopeye(input: string, hash_mb: number, sink: { text(chunk: string): void }): string;

/**
 * The pieces, attributes and options the solver knows, as JSON ([`solve::Catalogue`]).
 */
export function solverCatalogue(): string;

/**
 * The registered variants' names, as a JSON array.
 */
export function variants(): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_wasmanalysis_free: (a: number, b: number) => void;
    readonly __wbg_wasmgame_free: (a: number, b: number) => void;
    readonly benchDepth: (a: number, b: number, c: number) => number;
    readonly benchPositions: () => [number, number];
    readonly conditionPopeye: (a: number, b: number) => [number, number];
    readonly readPopeye: (a: number, b: number) => [number, number];
    readonly setupFen: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly setupOf: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
    readonly solvePopeye: (a: number, b: number, c: number, d: any) => [number, number];
    readonly solverCatalogue: () => [number, number];
    readonly variants: () => [number, number];
    readonly wasmanalysis_new: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number];
    readonly wasmanalysis_step: (a: number, b: number) => [number, number];
    readonly wasmgame_fen: (a: number) => [number, number];
    readonly wasmgame_new: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number];
    readonly wasmgame_perft: (a: number, b: number, c: number) => [number, number, number];
    readonly wasmgame_play: (a: number, b: number, c: number) => [number, number, number, number];
    readonly wasmgame_state: (a: number) => [number, number];
    readonly wasmgame_undo: (a: number) => [number, number];
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
