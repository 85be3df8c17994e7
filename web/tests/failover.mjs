// The web app across a failover, in a real headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core). Run by crates/server/tests/multi.rs, which starts two
// server processes on one PostgreSQL behind nginx and passes the front door's URL:
//
//   node tests/failover.mjs http://127.0.0.1:PORT
//
// Two pages play a game through the front door by clicks; the script then prints
// `kill GAME` and waits for a line on its standard input: the test kills the process that
// owns the game (SIGKILL) and answers `killed`. Both pages must say they are reconnecting,
// in words, reconnect by themselves, and the game must go on by clicks, every move on the
// server once. Exits non-zero on a failure (with a screenshot in web/test-artifacts/).
import { chromium } from 'playwright-core';
import { api, assert, click, waitPly } from './page-helpers.mjs';
import { createInterface } from 'node:readline';
import { mkdirSync } from 'node:fs';

const base = process.argv[2];
if (!base) { console.error('usage: node tests/failover.mjs http://127.0.0.1:PORT'); process.exit(2); }
const artifacts = new URL('../test-artifacts/', import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
const stdin = createInterface({ input: process.stdin });
const nextLine = () => new Promise(resolve => stdin.once('line', resolve));

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const pages = [];
const t0 = Date.now();
const log = s => console.log(`${((Date.now() - t0) / 1000).toFixed(2)} s  ${s}`);

/** A move by two clicks: the piece, then its destination. */
async function play(page, from, to) { await click(page, from); await click(page, to); }

let code = 0;
try {
  const a = await (await browser.newContext({ viewport: { width: 1100, height: 800 } })).newPage();
  const b = await (await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })).newPage();
  pages.push(a, b);
  // A game through the front door: a creates it (White), b takes the other seat.
  await a.goto(base + '/rules');
  const g = await api(a, '/api/games', { variant: 'chess', opponent: 'private', colour: 'white', minutes: 10, increment: 0 });
  assert(g.id, 'create: ' + JSON.stringify(g));
  await a.goto(base + '/game/' + g.id);
  await b.goto(base + '/game/' + g.id);
  await b.click('#join');
  for (const p of [a, b]) await p.waitForFunction(() => document.body.dataset.status === 'playing');
  await play(a, 'e2', 'e4');
  await waitPly(b, 1);
  await play(b, 'e7', 'e5');
  await waitPly(a, 2);
  log('two moves played through the front door');

  // The owner of the game is killed.
  console.log(`kill ${g.id}`);
  assert((await nextLine()) === 'killed', 'the test did not kill the owner');
  const killed = Date.now();
  for (const [name, p] of [['white', a], ['black', b]]) {
    await p.waitForSelector('#connection:not(.hidden)', { timeout: 5000 });
    const said = await p.textContent('#connection');
    assert(/reconnecting/i.test(said), `${name}'s page says it is reconnecting: "${said}"`);
  }
  log(`both pages say "${(await a.textContent('#connection')).trim()}" (${Date.now() - killed} ms after the kill)`);
  // Both reconnect by themselves (to the front door, which sends them to the live process).
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.body.dataset.connected === '1' && document.body.dataset.status === 'playing', null, { timeout: 20000 });
    await p.waitForSelector('#connection.hidden', { state: 'attached', timeout: 20000 });
  }
  log(`both pages reconnected ${Date.now() - killed} ms after the kill`);
  // The game goes on by clicks, from the stored position.
  assert(Number(await a.evaluate(() => document.body.dataset.ply)) === 2, 'the game resumed at ply 2');
  await play(a, 'g1', 'f3');
  await waitPly(b, 3, 15000);
  log(`the first move after the failover accepted ${Date.now() - killed} ms after the kill`);
  await play(b, 'b8', 'c6');
  await waitPly(a, 4);
  await play(a, 'f1', 'b5');
  await waitPly(b, 5);
  const st = await api(b, `/api/games/${g.id}`);
  const ucis = st.moves.map(m => m.uci).join(' ');
  assert(ucis === 'e2e4 e7e5 g1f3 b8c6 f1b5', 'stored, each once: ' + ucis);
  log('the game went on by clicks: ' + ucis);
} catch (e) {
  code = 1;
  console.log('FAIL ' + (e.stack || e));
  let i = 0;
  for (const p of pages) await p.screenshot({ path: `${artifacts}fail-failover-${i++}.png` }).catch(() => {});
} finally {
  stdin.close();
  await browser.close();
}
process.exit(code);
