// The solver's speed in the browser against the native build (not a test): the heaviest
// problems of the open corpus (../shared/oracle/popeye-solve/, by Popeye's time), each
// solved by `chimere solve --threads 1` and by the checked-in WebAssembly module in
// Debian's Chromium (the problems page's worker), alternately, the best of ROUNDS runs each,
// both with a 64 MB table.
// Serves the checked-in assets itself (crates/server/assets/) unless given a server's
// address (`chimere serve --listen 127.0.0.1:PORT`); needs a release build for the native side.
// Usage: node wasm/solve-bench.mjs [http://127.0.0.1:PORT|-] [COUNT=12] [ROUNDS=3] [CHIMERE=../target/release/chimere]
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

let [base, countArg, roundsArg, bin] = process.argv.slice(2);
let server;
if (!base || base === '-') {
  const types = { js: 'text/javascript', wasm: 'application/wasm' };
  server = createServer((req, res) => {
    const path = req.url.split('?')[0];
    if (!path.startsWith('/assets/')) { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>bench</title>'); return; }
    try {
      const body = readFileSync(`../crates/server/assets/${path.slice('/assets/'.length)}`);
      res.writeHead(200, { 'content-type': types[path.split('.').pop()] || 'application/octet-stream' });
      res.end(body);
    } catch { res.writeHead(404); res.end(); }
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
}
const count = Number(countArg || 12), rounds = Number(roundsArg || 3);
const chimere = bin || '../target/release/chimere';
const dir = `${process.env.CHIMERE_SHARED || '../../shared'}/oracle/popeye-solve`;
const all = readdirSync(dir).filter(f => f.endsWith('.jsonl'))
  .flatMap(f => readFileSync(`${dir}/${f}`, 'utf8').trim().split('\n').map(l => JSON.parse(l)));
all.sort((a, b) => b.popeye_seconds - a.popeye_seconds);
const picked = all.slice(0, count);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.goto(base + '/problems');
const wasm = input => page.evaluate(async input => {
  const w = new Worker('/assets/problems-worker.js', { type: 'module' });
  const ms = await new Promise((resolve, reject) => {
    w.onmessage = m => { if (m.data.t === 'done') resolve(m.data.ms); if (m.data.t === 'error') reject(new Error(m.data.message)); };
    w.postMessage({ t: 'solve', id: 1, input });
  });
  w.terminate();
  return ms;
}, input);
const tmp = `/tmp/chimere-solve-bench-${process.pid}.inp`;
const native = input => {
  writeFileSync(tmp, input);
  const t = performance.now();
  // The worker's table size (problem-worker.ts), so both search alike.
  execFileSync(chimere, ['solve', '--threads', '1', '--hash', '64', tmp], { stdio: 'ignore' });
  return performance.now() - t;
};
let sumW = 0, sumN = 0;
console.log('problem                               stip      native ms   wasm ms   ratio');
for (const p of picked) {
  let n = Infinity, w = Infinity;
  for (let r = 0; r < rounds; r++) { n = Math.min(n, native(p.input)); w = Math.min(w, await wasm(p.input)); }
  sumW += w; sumN += n;
  console.log(`${p.source.padEnd(38)}${p.stipulation.padEnd(10)}${n.toFixed(0).padStart(9)}${w.toFixed(0).padStart(10)}${(w / n).toFixed(2).padStart(8)}`);
}
console.log(`total: native ${sumN.toFixed(0)} ms, wasm ${sumW.toFixed(0)} ms, ratio ${(sumW / sumN).toFixed(2)}`);
await browser.close();
server?.close();
