// The analysis worker: the engine compiled to WebAssembly (crates/wasm), run in slices of
// SLICE_MS so a stop or a new position is read between two slices. Lines are posted as
// each depth completes.
import init, { WasmAnalysis } from '../../../crates/server/assets/wasm/chimere_wasm.js';
import type { FromWorker, Job, ToWorker } from './wasm-types';

/** Longest uninterrupted search: the bound on the answer to a stop. */
const SLICE_MS = 40;
const TABLE_MB = 32;

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
let current: { job: Job; a: WasmAnalysis } | undefined;
let scheduled = false;
// A zero-delay yield to the event loop (setTimeout is clamped after a few nestings).
const channel = new MessageChannel();
channel.port1.onmessage = () => { scheduled = false; slice(); };
const schedule = () => { if (!scheduled) { scheduled = true; channel.port2.postMessage(0); } };

function slice() {
  if (!current) return;
  const { job, a } = current;
  const step = JSON.parse(a.step(SLICE_MS));
  if (step.fresh || step.done) post({ t: 'lines', id: job.id, step });
  if (step.done) { a.free(); current = undefined; } else schedule();
}

function stop() {
  if (current) { current.a.free(); post({ t: 'stopped', id: current.job.id }); current = undefined; }
}

const ready = init({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' }).then(() => post({ t: 'ready' }));

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  await ready;
  const m = e.data;
  if (m.t === 'stop') { if (current) stop(); else post({ t: 'stopped', id: -1 }); return; }
  stop();
  const j = m.job;
  try {
    const a = new WasmAnalysis(j.variant, JSON.stringify(j.options), j.fen, JSON.stringify(j.moves), j.multipv, TABLE_MB);
    current = { job: j, a };
    schedule();
  } catch (err) {
    post({ t: 'error', id: j.id, message: String((err as Error).message || err) });
  }
};
