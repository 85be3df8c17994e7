// The analysis board's engine as a person meets it, in Debian's Chromium: for each variant
// the server describes, open /analysis on its start position, click "Start the engine",
// and measure the time from the click to the first line on screen and the depth shown 1 s
// and 10 s after the click. A benchmark, not a test (its figures depend on the machine).
// Needs a running server (`chimere serve --listen 127.0.0.1:PORT`).
// Usage: node wasm/first-line.mjs http://127.0.0.1:PORT [RUNS]
import { chromium } from 'playwright-core';

const [base, runsArg] = process.argv.slice(2);
if (!base) { console.error('usage: node wasm/first-line.mjs http://127.0.0.1:PORT [RUNS]'); process.exit(2); }
const runs = Number(runsArg || 3);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const variants = (await (await fetch(base + '/api/variants')).json()).variants.map(v => v.name);
const median = xs => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

console.log('variant | click to first line, ms (median, min–max) | depth after 1 s | depth after 10 s | runs');
for (const variant of variants) {
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${base}/analysis#variant=${variant}`);
    await page.waitForSelector('#board cg-board');
    // Clock the click and the first line inside the page (no round trip to this script).
    await page.evaluate(() => {
      const w = window;
      w.__bench = { click: 0, first: 0, d1: 0, d10: 0 };
      new MutationObserver(() => {
        if (!w.__bench.first && document.querySelector('#lines .line')) w.__bench.first = performance.now();
      }).observe(document.getElementById('lines'), { childList: true });
      document.getElementById('engine-toggle').addEventListener('click', () => {
        w.__bench.click = performance.now();
        setTimeout(() => { w.__bench.d1 = Number(document.body.dataset.depth); }, 1000);
        setTimeout(() => { w.__bench.d10 = Number(document.body.dataset.depth); }, 10000);
      }, { capture: true });
    });
    await page.click('#engine-toggle');
    await page.waitForFunction(() => window.__bench.d10 > 0, null, { timeout: 30000 });
    const b = await page.evaluate(() => window.__bench);
    rows.push({ first: b.first - b.click, d1: b.d1, d10: b.d10 });
    await page.close();
  }
  const first = rows.map(r => r.first);
  console.log(`${variant} | ${median(first).toFixed(0)} (${Math.min(...first).toFixed(0)}–${Math.max(...first).toFixed(0)}) | ${median(rows.map(r => r.d1))} | ${median(rows.map(r => r.d10))} | ${runs}`);
}
await browser.close();
