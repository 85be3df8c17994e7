// Live games while people analyse: N analysis boards in Debian's Chromium run their engine
// (WebAssembly, in Web Workers, on this machine's cores) while `chimere load` plays its
// games against the same server; prints the load's report. The analyses cost the server
// nothing, so what this measures is the share of the machine they take. A benchmark, not a
// test. Needs a running server and the `chimere` binary.
// Usage: node wasm/load-with-analyses.mjs http://127.0.0.1:PORT CHIMERE_BIN [ANALYSES] [GAMES]
// Environment: SERVER_PID=n prints the CPU time the server spent during the load (the
// analyses' cost to the server, which should be none); NICE=n runs Chromium at that
// niceness, IDLE=1 in Linux's idle scheduling class (`chrt --idle`: it runs only when no
// other process wants the CPU), CPUS=list runs it on those CPUs only (taskset), all to stand
// for browsers on other machines when this one has only 2 cores (pin the server and the load
// to the others).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [base, bin, nArg, gamesArg] = process.argv.slice(2);
if (!base || !bin) { console.error('usage: node wasm/load-with-analyses.mjs http://127.0.0.1:PORT CHIMERE_BIN [ANALYSES] [GAMES]'); process.exit(2); }
const n = Number(nArg ?? 4), games = Number(gamesArg ?? 1000);
let executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const prefix = [
  process.env.NICE ? `nice -n ${Number(process.env.NICE)}` : '',
  process.env.IDLE ? 'chrt --idle 0' : '',
  process.env.CPUS ? `taskset -c ${process.env.CPUS.replace(/[^0-9,-]/g, '')}` : '',
].filter(Boolean).join(' ');
if (prefix) {
  const wrapper = join(mkdtempSync(join(tmpdir(), 'chimere-wrap-')), 'chromium');
  writeFileSync(wrapper, `#!/bin/sh\nexec ${prefix} ${executablePath} "$@"\n`);
  chmodSync(wrapper, 0o755);
  executablePath = wrapper;
}
/** The server's CPU time so far, in seconds (user + system, from /proc). */
const serverCpu = () => {
  if (!process.env.SERVER_PID) return NaN;
  const f = readFileSync(`/proc/${process.env.SERVER_PID}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });

/** Chromium starts new sessions, and with them scheduler autogroups, which share the CPU
 * fairly with the server's whatever the processes' own niceness: give each autogroup of
 * this script's descendants the niceness too (Linux: /proc/PID/autogroup; root may lower
 * it, anyone may raise it). */
function niceAutogroups(nice) {
  const parent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try { parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1])); } catch { /* gone */ }
  }
  const mine = pid => { for (let p = pid; p > 1; p = parent.get(p) ?? 0) if (p === process.pid) return true; return false; };
  const done = new Set();
  for (const pid of parent.keys()) {
    if (pid === process.pid || !mine(pid)) continue;
    try {
      const group = readFileSync(`/proc/${pid}/autogroup`, 'utf8').split(' ')[0];
      if (done.has(group)) continue;
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
      done.add(group);
    } catch { /* gone, or no autogroups */ }
  }
  console.log(`Chromium's scheduler autogroups at nice ${nice}: ${[...done].join(', ') || 'none'}`);
}
const variants = (await (await fetch(base + '/api/variants')).json()).variants.map(v => v.name);
const pages = [];
for (let i = 0; i < n; i++) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(`${base}/analysis#variant=${variants[i % variants.length]}`);
  await page.waitForSelector('#board cg-board');
  await page.click('#engine-toggle');
  pages.push(page);
}
await Promise.all(pages.map(p => p.waitForFunction(() => Number(document.body.dataset.depth) > 0)));
if (process.env.NICE) niceAutogroups(Number(process.env.NICE));
const cpu0 = serverCpu();
console.log(`${n} analyses running (${pages.length} pages: ${variants.slice(0, n).join(', ')}); chimere load --games ${games}`);
const server = new URL(base).host;
const load = spawn(bin, ['load', '--server', server, '--games', String(games)], { stdio: 'inherit' });
const code = await new Promise(resolve => load.on('exit', resolve));
if (process.env.SERVER_PID) console.log(`the server's CPU time during the load: ${(serverCpu() - cpu0).toFixed(2)} s`);
// The analyses were still running at the end (none finished: their engines search on).
const states = await Promise.all(pages.map(p => p.evaluate(() => `${document.body.dataset.engine} at depth ${document.body.dataset.depth}`)));
console.log('analyses at the end: ' + states.join('; '));
await browser.close();
process.exit(code ?? 1);
