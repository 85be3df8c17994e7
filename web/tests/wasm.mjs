// The checked-in WebAssembly build (crates/server/assets/wasm/) in a real Chromium: it
// loads from the server and agrees with the native build on the positions given.
// Usage: node tests/wasm.mjs http://127.0.0.1:PORT EXPECTED.json
// EXPECTED.json: [{variant, options, fen, depth, perft, legal: [canonical...]}] computed
// natively (crates/server/tests/wasm.rs). Prints one line per check; exit 1 on a failure.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';

const [base, file] = process.argv.slice(2);
if (!base || !file) { console.error('usage: node tests/wasm.mjs http://127.0.0.1:PORT EXPECTED.json'); process.exit(2); }
const expected = JSON.parse(readFileSync(file, 'utf8'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
let failed = 0;
try {
  const page = await browser.newPage();
  page.on('pageerror', e => console.log('  page error:', e.message));
  await page.goto(base + '/api/stats');
  const got = await page.evaluate(async (expected) => {
    const m = await import('/assets/wasm/chimere_wasm.js');
    await m.default({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
    const out = [];
    for (const e of expected) {
      const g = new m.WasmGame(e.variant, JSON.stringify(e.options), e.fen);
      const state = JSON.parse(g.state());
      const t0 = performance.now();
      const perft = g.perft(e.depth, false);
      out.push({ perft, ms: performance.now() - t0, legal: state.legal.map(t => t.canonical).sort() });
      g.free();
    }
    // The engine: Fool's mate found as mate in one, written in the variant's notation.
    const a = new m.WasmAnalysis('chess', '', '', JSON.stringify(['f3', 'e5', 'g4']), 1, 4);
    let step;
    for (let i = 0; i < 200; i++) { step = JSON.parse(a.step(50)); if (step.done) break; }
    let refused = '';
    try { new m.WasmGame('chess', '', '8/8/8/8/8/8/8/8 w - - 0 1'); } catch (err) { refused = String(err.message || err); }
    return { out, step, refused };
  }, expected);
  expected.forEach((e, i) => {
    const g = got.out[i];
    const label = `${e.variant}${e.options.conditions.length ? ' (' + e.options.conditions.join(', ') + ')' : ''} ${e.fen}`;
    const legalOk = JSON.stringify(g.legal) === JSON.stringify([...e.legal].sort());
    const ok = g.perft === e.perft && legalOk;
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}: perft ${e.depth} = ${g.perft} (native ${e.perft}), ${g.legal.length} legal turns${legalOk ? '' : ' DIFFER from native'} (${g.ms.toFixed(0)} ms)`);
  });
  const line = got.step.lines[0];
  const mateOk = got.step.done && line && line.score.mate === 1 && line.notation[0] === 'Qh4#';
  if (!mateOk) failed++;
  console.log(`${mateOk ? 'ok  ' : 'FAIL'} analysis: ${JSON.stringify(line)}`);
  const refusedOk = /king/i.test(got.refused);
  if (!refusedOk) failed++;
  console.log(`${refusedOk ? 'ok  ' : 'FAIL'} a position without kings is refused: ${got.refused}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
