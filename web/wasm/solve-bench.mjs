// The solver's speed in the browser against the native build (not a test): the heaviest
// problems of the open corpus (../shared/oracle/popeye-solve/, by Popeye's time), each
// solved by `chimere solve --threads 1` and by the checked-in WebAssembly module in
// Debian's Chromium (the problems page's worker), alternately, the best of ROUNDS runs each,
// both with a 64 MB table. Reports CPU time (the machine is shared), wall-clock beside it.
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
const wasmWall = input => page.evaluate(async input => {
  const w = new Worker('/assets/problems-worker.js', { type: 'module' });
  const ms = await new Promise((resolve, reject) => {
    w.onmessage = m => { if (m.data.t === 'done') resolve(m.data.ms); if (m.data.t === 'error') reject(new Error(m.data.message)); };
    w.postMessage({ t: 'solve', id: 1, input });
  });
  w.terminate();
  return ms;
}, input);
const wasm = async input => { const c = descendantsCpu(); const wall = await wasmWall(input); return { wall, cpu: descendantsCpu() - c }; };
// CPU time (user + system, ms) of this process's descendants: the machine is shared, so
// wall-clock times say more about the neighbours than about the solver.
const TICK_MS = 10;
function stats() {
  const out = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) });
    } catch { /* gone */ }
  }
  return out;
}
function descendantsCpu() {
  const all = stats();
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const p = stack.pop();
    for (const [pid, s] of all) if (s.ppid === p) { total += s.cpu; stack.push(pid); }
  }
  return total * TICK_MS;
}
const childrenCpu = () => stats().get(process.pid).children * TICK_MS;
const tmp = `/tmp/chimere-solve-bench-${process.pid}.inp`;
const native = input => {
  writeFileSync(tmp, input);
  const t = performance.now(), c = childrenCpu();
  // The worker's table size (problem-worker.ts), so both search alike.
  execFileSync(chimere, ['solve', '--threads', '1', '--hash', '64', tmp], { stdio: 'ignore' });
  return { wall: performance.now() - t, cpu: childrenCpu() - c };
};
let sumW = 0, sumN = 0;
console.log('problem                               stip      native cpu ms  wasm cpu ms  ratio   (wall: native, wasm)');
for (const p of picked) {
  let n = { wall: Infinity, cpu: Infinity }, w = { wall: Infinity, cpu: Infinity };
  for (let r = 0; r < rounds; r++) {
    const a = native(p.input); if (a.cpu < n.cpu) n = a;
    const b = await wasm(p.input); if (b.cpu < w.cpu) w = b;
  }
  sumW += w.cpu; sumN += n.cpu;
  console.log(`${p.source.padEnd(38)}${p.stipulation.padEnd(10)}${n.cpu.toFixed(0).padStart(12)}${w.cpu.toFixed(0).padStart(13)}${(w.cpu / n.cpu).toFixed(2).padStart(7)}   (${n.wall.toFixed(0)}, ${w.wall.toFixed(0)})`);
}
console.log(`total CPU: native ${sumN.toFixed(0)} ms, wasm ${sumW.toFixed(0)} ms, ratio ${(sumW / sumN).toFixed(2)}`);
await browser.close();
server?.close();
