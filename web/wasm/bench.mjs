// The browser half of the WebAssembly speed comparison: the checked-in module in Debian's
// Chromium runs what `cargo run --release -p chimere-wasm --example bench` runs natively
// (perft of every bench position, then the analysis's nodes per second over 40 ms slices),
// and the ratios are printed. Needs a running server: `chimere serve --listen 127.0.0.1:PORT`.
// Usage: node wasm/bench.mjs http://127.0.0.1:PORT [SECONDS] [NATIVE.jsonl]
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [base, secsArg, nativeFile] = process.argv.slice(2);
const secs = Number(secsArg || 3);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.goto(base + '/api/stats');
const rows = await page.evaluate(async (secs) => {
  const m = await import('/assets/wasm/chimere_wasm.js');
  await m.default({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
  const out = [];
  for (const b of JSON.parse(m.benchPositions())) {
    const options = JSON.stringify({ conditions: b.conditions });
    const depth = m.benchDepth(b.variant, b.depth);
    const g = new m.WasmGame(b.variant, options, b.fen);
    let t = performance.now();
    const leaves = g.perft(depth, false);
    const perft_ms = performance.now() - t;
    g.free();
    const a = new m.WasmAnalysis(b.variant, options, b.fen, '', 1, 32);
    let nodes = 0, ms = 0, reached = 0;
    t = performance.now();
    while (performance.now() - t < secs * 1000) {
      const s = JSON.parse(a.step(40));
      nodes += s.nodes; ms += s.ms; reached = s.depth;
      if (s.done) break;
    }
    a.free();
    out.push({ label: `${b.variant} ${b.conditions.join('+')} ${b.label}`, perft_depth: depth, leaves, perft_ms, search_nps: nodes * 1000 / Math.max(ms, 1), depth: reached });
  }
  return out;
}, secs);
await browser.close();
const native = nativeFile ? Object.fromEntries(readFileSync(nativeFile, 'utf8').trim().split('\n').map(l => JSON.parse(l)).map(r => [r.label, r])) : {};
console.log('position | perft depth | leaves | wasm ms | native ms | perft ratio | wasm search nps | native nps | search ratio | depth wasm/native');
for (const r of rows) {
  const n = native[r.label];
  const pr = n ? (r.perft_ms / n.perft_ms).toFixed(2) : '-';
  const sr = n ? (n.search_nps / r.search_nps).toFixed(2) : '-';
  if (n && n.leaves !== r.leaves) console.log(`LEAVES DIFFER: ${r.label}: wasm ${r.leaves}, native ${n.leaves}`);
  console.log(`${r.label} | ${r.perft_depth} | ${r.leaves} | ${r.perft_ms.toFixed(0)} | ${n ? n.perft_ms.toFixed(0) : '-'} | ${pr} | ${r.search_nps.toFixed(0)} | ${n ? n.search_nps.toFixed(0) : '-'} | ${sr} | ${r.depth}/${n ? n.depth : '-'}`);
}
