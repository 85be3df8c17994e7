// The problems page's worker: the solver compiled to WebAssembly (crates/wasm/src/solve.rs)
// solving on this thread. Its text is posted as the solver writes it (solutions appear as
// each first move is solved); the page cancels a solve by terminating the worker.
import init, { solvePopeye } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import type { FromWorker, ProblemResult, ToWorker } from '../problems/wasm-types';

/** The solver's table of solved positions (MB). */
const TABLE_MB = 64;

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
const ready = init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' }).then(() => post({ t: 'ready' }));

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  await ready;
  const m = e.data;
  const t0 = performance.now();
  try {
    const out = solvePopeye(m.input, TABLE_MB, { text: (chunk: string) => post({ t: 'text', id: m.id, chunk }) });
    post({ t: 'done', id: m.id, results: JSON.parse(out) as ProblemResult[], ms: performance.now() - t0 });
  } catch (err) {
    post({ t: 'error', id: m.id, message: String((err as Error).message || err) });
  }
};
