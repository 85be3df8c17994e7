/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __wbg_wasmanalysis_free: (a: number, b: number) => void;
export const __wbg_wasmgame_free: (a: number, b: number) => void;
export const benchDepth: (a: number, b: number, c: number) => number;
export const benchPositions: () => [number, number];
export const conditionPopeye: (a: number, b: number) => [number, number];
export const readPopeye: (a: number, b: number) => [number, number];
export const setupFen: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
export const setupOf: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number, number];
export const solvePopeye: (a: number, b: number, c: number, d: any) => [number, number];
export const solverCatalogue: () => [number, number];
export const variants: () => [number, number];
export const wasmanalysis_new: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number, number];
export const wasmanalysis_step: (a: number, b: number) => [number, number];
export const wasmgame_fen: (a: number) => [number, number];
export const wasmgame_new: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number, number];
export const wasmgame_perft: (a: number, b: number, c: number) => [number, number, number];
export const wasmgame_play: (a: number, b: number, c: number) => [number, number, number, number];
export const wasmgame_state: (a: number) => [number, number];
export const wasmgame_undo: (a: number) => [number, number];
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __externref_table_dealloc: (a: number) => void;
export const __wbindgen_start: () => void;
