// Browser tests in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core). Usage: node tests/browser.mjs http://127.0.0.1:PORT
// Prints `N passed, N failed` and exits non-zero on any failure. Screenshots of every
// variant's start position go to web/test-artifacts/.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const base = process.argv[2];
if (!base) { console.error('usage: node tests/browser.mjs http://127.0.0.1:PORT'); process.exit(2); }
const artifacts = new URL('../test-artifacts/', import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
let passed = 0, failed = 0;

async function test(name, f) {
  const t0 = Date.now();
  try { await f(); passed++; console.log(`ok   ${name} (${Date.now() - t0} ms)`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e.stack || e}`); }
}
function assert(c, msg) { if (!c) throw new Error(msg); }

async function newPage() {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await ctx.newPage();
  page.on('pageerror', e => console.log('  page error:', e.message));
  return page;
}

/** Centre of a square on the page's board. */
async function square(page, sq) {
  const box = await page.locator('#board cg-board').boundingBox();
  const flipped = await page.evaluate(() => !!document.querySelector('#board.orientation-black'));
  const f = 'abcdefgh'.indexOf(sq[0]), r = Number(sq[1]) - 1;
  const col = flipped ? 7 - f : f, row = flipped ? r : 7 - r;
  return { x: box.x + (col + 0.5) * box.width / 8, y: box.y + (row + 0.5) * box.height / 8 };
}
async function click(page, sq) { const p = await square(page, sq); await page.mouse.click(p.x, p.y); }
async function waitPly(page, n) { await page.waitForFunction(n => Number(document.body.dataset.ply) >= n, n, { timeout: 10000 }); }
async function api(page, path, body) {
  return page.evaluate(async ([path, body]) => {
    const r = await fetch(path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
    return r.json();
  }, [path, body]);
}

/** Creates a game (page a's identity, colour as given), b joins; returns the id. */
async function setup(a, b, body) {
  await a.goto(base + '/');
  const r = await api(a, '/api/games', { opponent: 'private', ...body });
  assert(r.id, 'create: ' + JSON.stringify(r));
  await a.goto(base + '/game/' + r.id);
  await b.goto(base + '/game/' + r.id);
  await b.click('#join');
  await a.waitForFunction(() => document.body.dataset.status === 'playing');
  await b.waitForFunction(() => document.body.dataset.status === 'playing');
  return r.id;
}

/** Enters a turn (its UCI token) part by part with clicks and buttons. */
async function enter(page, uci, isPrefixOfOthers) {
  for (const part of uci.split(',')) {
    if (part === '0000' || part.endsWith('--')) {
      await page.click(`#parts button[data-part="${part}"]`);
    } else {
      await click(page, part.slice(0, 2));
      await click(page, part.slice(2, 4));
      // A choice (promotion, Checkered kind) is asked when several parts share the squares.
      const choice = page.locator('#choice');
      try { await choice.waitFor({ state: 'attached', timeout: part.length > 4 ? 3000 : 300 }); } catch { /* no choice asked */ }
      if (await choice.count()) await page.click(`#choice button[data-part="${part}"]`);
    }
    await page.waitForTimeout(150);
  }
  if (isPrefixOfOthers) await page.click('#end-turn');
}

async function playTurnBy(page, id, pred, label) {
  const st = await api(page, `/api/games/${id}`);
  const turn = st.legal.find(pred);
  assert(turn, `${label}: no such turn in ${st.legal.length} legal turns`);
  const longer = st.legal.some(t => t.uci !== turn.uci && t.uci.startsWith(turn.uci + ','));
  await enter(page, turn.uci, longer);
  try { await waitPly(page, st.ply + 1); } catch (e) {
    const seen = await page.evaluate(() => `prefix=${document.body.dataset.prefix} error=${document.getElementById('error').textContent} status=${document.getElementById('status').textContent}`);
    throw new Error(`${label}: ${turn.uci} not played (${seen})`);
  }
  const after = await api(page, `/api/games/${id}`);
  assert(after.moves[st.ply].uci === turn.uci, `${label}: played ${after.moves[st.ply].uci}, wanted ${turn.uci}`);
  return turn;
}

await test('start position of every variant (screenshots)', async () => {
  for (const variant of ['chess', 'checkered', 'interweave', 'fugue', 'dynamo']) {
    const p = await newPage();
    await p.goto(base + '/');
    await p.selectOption('#variant', variant);
    await p.selectOption('#opponent', 'private');
    await p.click('#create');
    await p.waitForURL(/\/game\//);
    await p.waitForFunction(() => document.querySelectorAll('#board cg-board piece:not(.ghost)').length >= 32);
    const n = await p.locator('#board cg-board piece:not(.ghost)').count();
    assert(n === 32, `${variant}: ${n} pieces`);
    await p.screenshot({ path: `${artifacts}start-${variant}.png` });
    await p.context().close();
  }
});

await test('two players and a spectator play a chess game to mate by clicking', async () => {
  const a = await newPage(), b = await newPage(), c = await newPage();
  const id = await setup(a, b, { variant: 'chess', colour: 'white' });
  await c.goto(base + '/game/' + id);
  await c.waitForFunction(() => document.body.dataset.status === 'playing');
  const moves = [[a, 'f2', 'f3'], [b, 'e7', 'e5'], [a, 'g2', 'g4'], [b, 'd8', 'h4']];
  for (const [i, [p, from, to]] of moves.entries()) {
    await click(p, from);
    await click(p, to);
    for (const q of [a, b, c]) await waitPly(q, i + 1);
  }
  for (const q of [a, b, c]) await q.waitForFunction(() => document.body.dataset.status === 'finished');
  const text = await c.textContent('#status');
  assert(text.includes('0-1'), 'spectator sees the result: ' + text);
  assert((await c.locator('#moves .mv').count()) === 4, 'spectator move list');
  assert((await c.locator('#resign').count()) === 0, 'no actions for a spectator');
  // Keyboard navigation through the moves.
  await c.focus('#moves');
  await c.keyboard.press('Home');
  assert((await c.textContent('#status')).includes('Viewing ply 0'), 'Home goes to the start');
  await c.keyboard.press('ArrowRight');
  assert((await c.locator('#moves .mv.current').textContent()) === 'f3', 'ArrowRight steps one move');
  // "Copy FEN" copies the position shown, not the live one.
  const copied = async (q) => { await q.click('#copy-fen'); return (await q.textContent('#info')).replace(/^FEN: /, ''); };
  const afterF3 = 'rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b';
  assert((await copied(c)).startsWith(afterF3), 'copy FEN after ply 1: ' + (await c.textContent('#info')));
  await c.keyboard.press('Home');
  assert((await copied(c)).startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w'), 'copy FEN at the start');
  await c.keyboard.press('End');
  assert((await copied(c)).startsWith('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w'), 'copy FEN of the live position');
  // The same after a reload (the moves then come with the full state).
  await c.reload();
  await c.waitForFunction(() => document.body.dataset.status === 'finished');
  await c.focus('#moves');
  await c.keyboard.press('Home');
  await c.keyboard.press('ArrowRight');
  assert((await copied(c)).startsWith(afterF3), 'copy FEN after ply 1, after a reload');
  for (const q of [a, b, c]) await q.context().close();
});

await test('a person plays a whole game against the computer by clicking', async () => {
  const p = await newPage();
  await p.goto(base + '/');
  await p.selectOption('#variant', 'chess');
  await p.selectOption('#opponent', 'computer');
  await p.selectOption('#level', '4');
  await p.selectOption('#colour', 'white');
  await p.uncheck('#timed');
  await p.click('#create');
  await p.waitForURL(/\/game\//);
  const id = p.url().split('/game/')[1];
  await p.waitForFunction(() => document.body.dataset.status === 'playing');
  let seed = 12345;
  const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let turn = 0; turn < 150; turn++) {
    // Wait for our turn (white) or the end.
    await p.waitForFunction(() => document.body.dataset.status === 'finished' || (document.body.dataset.side === 'white' && Number(document.body.dataset.ply) % 2 === 0), null, { timeout: 20000 });
    if (await p.evaluate(() => document.body.dataset.status === 'finished')) break;
    const st = await api(p, `/api/games/${id}`);
    const t = st.legal[rnd(st.legal.length)];
    await enter(p, t.uci, false);
    await waitPly(p, st.ply + 1);
  }
  await p.waitForFunction(() => document.body.dataset.status === 'finished', null, { timeout: 20000 });
  const st = await api(p, `/api/games/${id}`);
  assert(st.status === 'finished' && st.result !== '*', 'the game ended: ' + st.status + ' ' + st.result);
  assert(st.moves.length >= 2, 'the computer moved');
  const text = await p.textContent('#status');
  assert(/1-0|0-1|1\/2/.test(text), 'the result is shown: ' + text);
  console.log(`     computer game: ${st.moves.length} turns, ${st.result} (${st.reason})`);
  await p.context().close();
});

await test('dynamo: a push with follow, a pass, an exit and a pull by clicks', async () => {
  const a = await newPage(), b = await newPage();
  let id = await setup(a, b, { variant: 'dynamo', colour: 'white' });
  await playTurnBy(a, id, t => t.uci === 'h2h6,h1h5', 'push and follow');
  await playTurnBy(b, id, t => t.uci.endsWith(',0000'), 'pass');
  await playTurnBy(a, id, t => /^[a-h][1-8]--$/.test(t.uci.split(',')[0]), 'exit');
  await a.context().close(); await b.context().close();
  const c = await newPage(), d = await newPage();
  id = await setup(c, d, { variant: 'dynamo', colour: 'black', fen: '2bqkbnr/pppppppp/8/P7/8/8/1PPP1PPP/RNB1KBNR b 3 ahih wpa5/wpa2' });
  await playTurnBy(c, id, t => t.uci === 'c8a8,d8b8', 'pull');
  await c.context().close(); await d.context().close();
});

await test('interweave chain, checkered switch, promotion by clicks', async () => {
  let a = await newPage(), b = await newPage();
  let id = await setup(a, b, { variant: 'interweave', colour: 'black', fen: 'rbnkknbr/ppp2ppp/1N6/4p3/3P4/6P1/P1PPPPP1/RB1KKNBR b 7 - 000000' });
  const chain = await playTurnBy(a, id, t => t.uci.includes(','), 'chain');
  assert(chain.uci.split(',').length >= 2, 'a chain of captures');
  await a.context().close(); await b.context().close();
  a = await newPage(); b = await newPage();
  id = await setup(a, b, { variant: 'checkered', colour: 'black', fen: 'r1bqkbnr/pppppp1p/2n5/6o1/8/2P5/PP1PPPPP/RNBQKB1R b 5 ahah1111111111111101 - - 1' });
  await playTurnBy(a, id, t => t.uci.startsWith('0000,'), 'switch');
  await a.context().close(); await b.context().close();
  a = await newPage(); b = await newPage();
  id = await setup(a, b, { variant: 'chess', colour: 'white', fen: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1' });
  await playTurnBy(a, id, t => t.uci === 'a7a8n', 'under-promotion asked');
  await a.context().close(); await b.context().close();
});

await test('phone layout shows the board and the moves', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const p = await ctx.newPage();
  await p.goto(base + '/');
  await p.selectOption('#variant', 'fugue');
  await p.selectOption('#opponent', 'private');
  await p.click('#create');
  await p.waitForURL(/\/game\//);
  await p.waitForFunction(() => document.querySelectorAll('#board cg-board piece:not(.ghost)').length >= 32);
  const box = await p.locator('#board cg-board').boundingBox();
  assert(box.width <= 390 && box.width > 300, 'board fits the phone: ' + box.width);
  await p.screenshot({ path: `${artifacts}phone-fugue.png` });
  await ctx.close();
});

await test('archive, rules and conditions pages render', async () => {
  const p = await newPage();
  await p.goto(base + '/archive');
  await p.waitForSelector('table.list td');
  for (const v of ['chess', 'checkered', 'interweave', 'fugue', 'dynamo']) {
    await p.goto(base + '/rules/' + v);
    await p.waitForSelector('.small-board piece');
  }
  await p.screenshot({ path: `${artifacts}rules-dynamo.png`, fullPage: true });
  await p.goto(base + '/conditions');
  await p.waitForSelector('#conditions tbody tr');
  assert((await p.locator('#conditions tbody tr').count()) > 20, 'the conditions catalogue');
  await p.context().close();
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
