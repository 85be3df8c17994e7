// Browser tests in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core), on a desktop window and a 375×812 phone.
//
//   node tests/browser.mjs --server PATH/TO/chimere-server --db FILE   (starts the server
//       itself, and may stop and restart it on the same port and file)
//   node tests/browser.mjs http://127.0.0.1:PORT                        (a running server;
//       the tests that stop the server are skipped)
//
// ASSETS=dir serves /assets/ from that directory instead of the server's embedded copy
// (for working on web/ without rebuilding the server; the checked-in assets are checked
// against a fresh build by the server's tests). ONLY=regex runs the tests whose name matches; JOBS=n runs n tests at once (default 3;
// the tests that stop the server run alone, after the others). At the end every message
// the server sent over the WebSockets and the JSON API is decoded by the client's own
// decoders (web/src/protocol.ts) strictly: a message they refuse or a field they do not
// know fails the run. Prints `N passed, N failed`, exits non-zero on any failure.
// Screenshots go to web/test-artifacts/.
import { chromium } from 'playwright-core';
import { api, assert, click, square, waitPly } from './page-helpers.mjs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const argv = process.argv.slice(2);
const opt = name => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const artifacts = new URL('../test-artifacts/', import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });
for (const f of readdirSync(artifacts)) if (f.startsWith('fail-')) rmSync(artifacts + f);

/** The server under test: a child process on a fixed port once started. */
class Server {
  /** `args`: more command-line options (shortened timers). */
  constructor(bin, db, args = []) { this.bin = bin; this.db = db; this.args = args; this.proc = null; this.port = 0; }
  async start() {
    const proc = spawn(this.bin, ['--db', this.db, '--listen', `127.0.0.1:${this.port}`, ...this.args], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.proc = proc;
    let out = '';
    const addr = await new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the server did not start: ' + out)), 20000);
      proc.stdout.on('data', d => {
        out += d;
        const m = /http:\/\/([\d.]+):(\d+)/.exec(out);
        if (m) { clearTimeout(t); resolve(m); }
      });
      proc.on('exit', code => { clearTimeout(t); reject(new Error(`the server exited (${code}): ${out}`)); });
    });
    this.port = Number(addr[2]);
    this.url = `http://${addr[1]}:${addr[2]}`;
  }
  /** Kills the server at once (SIGKILL: nothing said to the clients). */
  async kill() {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    p.kill('SIGKILL');
    await once(p, 'exit');
    this.proc = null;
  }
  async restart() { await this.kill(); await this.start(); }
}

let server = null;
let base;
// The server never outlives the script, whatever ends it.
process.on('exit', () => { if (server?.proc) server.proc.kill('SIGKILL'); });
if (opt('--server')) {
  server = new Server(opt('--server'), opt('--db'));
  await server.start();
  base = server.url;
} else {
  base = argv[0];
}
if (!base) { console.error('usage: node tests/browser.mjs (--server BIN --db FILE | http://127.0.0.1:PORT)'); process.exit(2); }

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });

// ---------- the runner ----------

const tests = [];
/** A test: `fn(t)`, with `t.page(device)` for new pages and `t.log` for its output. */
function test(name, fn, opts = {}) { tests.push({ name, fn, ...opts }); }
/** The same test on the desktop window and on the phone. */
function both(name, fn, opts = {}) {
  for (const device of ['desktop', 'phone']) test(`${name} [${device}]`, t => fn(t, device), opts);
}

const DEVICES = {
  desktop: { viewport: { width: 1100, height: 800 } },
  phone: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
};
const frames = [];
const responses = [];
/** What the game pages said when their rules (WebAssembly) and the server's disagreed. */
const disagreements = [];

class T {
  constructor(name) { this.name = name; this.contexts = []; this.lines = []; }
  log(s) { this.lines.push('     ' + s); }
  async page(device = 'desktop') {
    const ctx = await browser.newContext(DEVICES[device]);
    this.contexts.push(ctx);
    if (process.env.ASSETS) {
      await ctx.route(/\/assets\/[\w.]+$/, route => {
        const file = new URL(route.request().url()).pathname.split('/').pop();
        const type = file.endsWith('.js') ? 'text/javascript' : 'text/css';
        route.fulfill({ body: readFileSync(join(process.env.ASSETS, file)), contentType: type });
      });
    }
    const page = await ctx.newPage();
    page.on('pageerror', e => this.log('page error: ' + e.message));
    page.on('console', m => { if (m.type() === 'error' && /legal turns differ/.test(m.text())) disagreements.push(`${this.name}: ${m.text()}`); });
    page.on('websocket', ws => ws.on('framereceived', f => frames.push(String(f.payload))));
    page.on('response', async r => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/') && (r.headers()['content-type'] || '').includes('json') && r.ok()) {
        try { responses.push([path, await r.text()]); } catch { /* page gone */ }
      }
    });
    return page;
  }
  async close() { for (const c of this.contexts) await c.close().catch(() => {}); }
}

let passed = 0, failed = 0, skipped = 0;
async function run(tst) {
  const t = new T(tst.name);
  const t0 = Date.now();
  try { await tst.fn(t); passed++; console.log(`ok   ${tst.name} (${Date.now() - t0} ms)`); }
  catch (e) {
    failed++;
    console.log(`FAIL ${tst.name} (${Date.now() - t0} ms): ${e.stack || e}`);
    // Screenshots of the test's pages as they were.
    const slug = tst.name.replace(/\W+/g, '-').slice(0, 60);
    let i = 0;
    for (const c of t.contexts) for (const pg of c.pages()) await pg.screenshot({ path: `${artifacts}fail-${slug}-${i++}.png` }).catch(() => {});
  }
  finally { await t.close(); }
  for (const l of t.lines) console.log(l);
}

// ---------- helpers ----------

async function drag(page, from, to) {
  const a = await square(page, from);
  const b = typeof to === 'string' ? await square(page, to) : to;
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}
const data = (page, key) => page.evaluate(k => document.body.dataset[k], key);
/** The piece on a square of the page's board (`white q-piece`...), or ''. A piece fading
 *  out (the one a move's animation is taking away) is not on the board any more. */
async function pieceAt(page, sq) {
  const p = await square(page, sq);
  return page.evaluate(([x, y]) => {
    for (const e of document.querySelectorAll('#board cg-board piece:not(.ghost):not(.fading)')) {
      const r = e.getBoundingClientRect();
      if (x > r.left && x < r.right && y > r.top && y < r.bottom && !e.classList.contains('dragging')) return e.className;
    }
    return '';
  }, [p.x, p.y]);
}

/** Creates a game (page a's identity, colour as given), b joins; returns the id. `at`:
 *  another server than the one under test. */
async function setup(a, b, body, at = base) {
  await a.goto(at + '/rules');
  const r = await api(a, '/api/games', { opponent: 'private', ...body });
  assert(r.id, 'create: ' + JSON.stringify(r));
  await a.goto(at + '/game/' + r.id);
  await b.goto(at + '/game/' + r.id);
  // Join once the page's live connection is up (a click before it is not sent).
  await b.waitForFunction(() => document.body.dataset.connected === '1');
  await b.click('#join');
  await a.waitForFunction(() => document.body.dataset.status === 'playing');
  await b.waitForFunction(() => document.body.dataset.status === 'playing');
  return r.id;
}

/** Enters a turn (a legal turn of the API, among `legal`) part by part on the board,
 * from its part `from` on (the parts before are entered already). */
async function enter(page, turn, legal, from = 0) {
  const parts = turn.uci.split(',');
  for (const [i, part] of parts.entries()) {
    if (i < from) continue;
    const before = parts.slice(0, i);
    const sameStart = t => { const p = t.uci.split(','); return before.every((x, j) => p[j] === x) && p.length > i; };
    if (part === '0000') {
      await page.click(`#parts button[data-part="${part}"]`);
    } else if (part.endsWith('--')) {
      // Off the board: select the piece, then its marked edge.
      await click(page, part.slice(0, 2));
      await page.click('.exit-zone.exit-top');
    } else {
      await click(page, part.slice(0, 2));
      await click(page, part.slice(2, 4));
      // A choice (promotion, a kind, a square) is asked when several parts share the squares.
      const asked = legal.filter(sameStart).map(t => t.uci.split(',')[i]).filter(p => p !== part && p.slice(0, 4) === part.slice(0, 4));
      if (asked.length) {
        await page.locator('#choice, .offer-square').first().waitFor({ state: 'attached', timeout: 5000 });
        if (await page.locator('#choice').count()) await page.click(`#choice button[data-part="${part}"]`);
        else await page.click(`.offer-square[data-square="${turn.shape.appears[0]}"]`);
      }
    }
    if (i + 1 < parts.length) await page.waitForFunction(p => document.body.dataset.prefix === p, parts.slice(0, i + 1).join(','), { timeout: 5000 });
  }
  const longer = legal.some(t => t.uci !== turn.uci && t.uci.startsWith(turn.uci + ','));
  if (longer) await page.click('#end-turn');
}

async function playTurnBy(page, id, pred, label) {
  const st = await api(page, `/api/games/${id}`);
  const turn = st.legal.find(pred);
  assert(turn, `${label}: no such turn in ${st.legal.length} legal turns`);
  await enter(page, turn, st.legal);
  try { await waitPly(page, st.ply + 1); } catch (e) {
    const seen = await page.evaluate(() => `prefix=${document.body.dataset.prefix} error=${document.getElementById('error')?.textContent} status=${document.getElementById('status')?.textContent}`);
    throw new Error(`${label}: ${turn.uci} not played (${seen})`);
  }
  const after = await api(page, `/api/games/${id}`);
  assert(after.moves[st.ply].uci === turn.uci, `${label}: played ${after.moves[st.ply].uci}, wanted ${turn.uci}`);
  return turn;
}

/** No text a person reads on the page looks like a canonical string or a UCI token. */
async function noMachineText(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = text.match(/\b[a-h][1-8][a-h][1-8][a-z]?\b|0000|\b[a-h][1-8]--|[+-][a-h][1-8]:[wbc][a-z]|[{}[\]]"/);
  assert(!bad, `${where}: machine text shown to a person: "${bad && bad[0]}"`);
}

/** The page scrolls sideways at its width. */
async function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

// ---------- the tests ----------

test('start position of every variant (screenshots)', async t => {
  const p = await t.page();
  await p.goto(base + '/');
  const { variants } = await api(p, '/api/variants');
  // The lobby's form creates a game (its options come from the variant's descriptor).
  await p.selectOption('#variant', variants[1].name);
  await p.selectOption('#opponent', 'private');
  await p.click('#create');
  await p.waitForURL(/\/game\//);
  for (const v of variants) {
    const r = await api(p, '/api/games', { variant: v.name, opponent: 'private', colour: 'white' });
    await p.goto(base + '/game/' + r.id);
    await p.waitForFunction(() => document.querySelectorAll('#board cg-board piece:not(.ghost):not(.fading)').length >= 32);
    const n = await p.locator('#board cg-board piece:not(.ghost)').count();
    assert(n === 32, `${v.name}: ${n} pieces`);
    await p.screenshot({ path: `${artifacts}start-${v.name}.png` });
  }
});

test('two players and a spectator play a chess game to mate by clicking', async t => {
  const a = await t.page(), b = await t.page(), c = await t.page();
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
  assert(/0-1|Black wins/.test(text), 'spectator sees the result: ' + text);
  assert((await c.locator('#moves .mv').count()) === 4, 'spectator move list');
  assert((await c.locator('#resign').count()) === 0, 'no actions for a spectator');
  // Keyboard navigation through the moves.
  await c.focus('#moves');
  await c.keyboard.press('Home');
  assert((await c.textContent('#status')).includes('Viewing move 0'), 'Home goes to the start');
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
});

test('a person plays a whole game against the computer by clicking', async t => {
  const p = await t.page();
  await p.goto(base + '/');
  await p.selectOption('#variant', 'chess');
  await p.selectOption('#opponent', 'computer');
  // The levels are the server's, each with its measured strength when it has one.
  const levels = (await api(p, '/api/variants')).levels;
  const shown = await p.$$eval('#level option', os => os.map(o => o.textContent));
  assert(shown.length === levels.length && levels.every((l, i) => shown[i] === `level ${l.level}` + (l.strength ? ` (${l.strength} Elo)` : '')), 'the level picker: ' + shown.join(', '));
  assert(shown.filter(x => /\(≈ \d+ Elo\)/.test(x)).length >= 2, 'strengths shown: ' + shown.join(', '));
  await p.selectOption('#level', '1');
  await p.selectOption('#colour', 'white');
  await p.uncheck('#timed');
  await p.click('#create');
  await p.waitForURL(/\/game\//);
  const id = p.url().split('/game/')[1];
  await p.waitForFunction(() => document.body.dataset.status === 'playing');
  let seed = 12345;
  const rnd = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let turn = 0; turn < 150; turn++) {
    await p.waitForFunction(() => document.body.dataset.status === 'finished' || (document.body.dataset.side === 'white' && Number(document.body.dataset.ply) % 2 === 0), null, { timeout: 20000 });
    if (await p.evaluate(() => document.body.dataset.status === 'finished')) break;
    const st = await api(p, `/api/games/${id}`);
    const tn = st.legal[rnd(st.legal.length)];
    await enter(p, tn, st.legal);
    await waitPly(p, st.ply + 1);
  }
  await p.waitForFunction(() => document.body.dataset.status === 'finished', null, { timeout: 20000 });
  const st = await api(p, `/api/games/${id}`);
  assert(st.status === 'finished' && st.result !== '*', 'the game ended: ' + st.status + ' ' + st.result);
  assert(st.moves.length >= 2, 'the computer moved');
  const text = await p.textContent('#status');
  assert(/1-0|0-1|1\/2|wins|draw/i.test(text), 'the result is shown: ' + text);
  t.log(`computer game: ${st.moves.length} turns, ${st.result} (${st.reason})`);
});

both('dynamo: a push with follow, a pass, an exit off the board and a pull', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  let id = await setup(a, b, { variant: 'dynamo', colour: 'white' });
  await playTurnBy(a, id, tn => tn.uci === 'h2h6,h1h5', 'push and follow');
  await playTurnBy(b, id, tn => tn.uci.endsWith(',0000'), 'pass');
  // An exit: the edge zones appear only once a piece that can leave is selected.
  const st = await api(a, `/api/games/${id}`);
  const exit = st.legal.find(tn => /^[a-h][1-8]--$/.test(tn.uci)) || st.legal.find(tn => /^[a-h][1-8]--$/.test(tn.uci.split(',')[0]));
  assert(exit, 'an exit is legal');
  assert((await a.locator('.exit-zone').count()) === 0, 'no exit zone before a piece is selected');
  assert((await a.locator('#parts button', { hasText: 'off the board' }).count()) === 0, 'no "off the board" buttons');
  const from = exit.uci.slice(0, 2);
  const exits = new Set(st.legal.map(tn => tn.uci.split(',')[0]).filter(p => p.endsWith('--')).map(p => p.slice(0, 2)));
  const other = ['a2', 'b2', 'c2', 'd2', 'e2', 'f2', 'g2', 'b1', 'c1', 'd1', 'e1'].find(sq => !exits.has(sq));
  await click(a, other);
  await a.waitForTimeout(100);
  assert((await a.locator('.exit-zone').count()) === 0, `no exit zone for ${other}, which cannot leave`);
  await click(a, from);
  await a.waitForSelector('.exit-zone');
  // Dragged off the board.
  const box = await a.locator('#board cg-board').boundingBox();
  await drag(a, from, { x: box.x + box.width / 2, y: box.y + box.height + 30 });
  await a.waitForFunction(p => document.body.dataset.prefix === p || Number(document.body.dataset.ply) >= 3, exit.uci.split(',')[0]);
  if (Number(await data(a, 'ply')) === 2) await enter(a, exit, st.legal, 1);
  await waitPly(a, 3);
  await noMachineText(a, 'dynamo game');
  // The turns were offered by the rules in the browser (WebAssembly), not by the server's list.
  await a.waitForFunction(() => document.body.dataset.legalFrom === 'browser');
  await a.screenshot({ path: `${artifacts}dynamo-${device}.png` });
  const c = await t.page(device), d = await t.page(device);
  id = await setup(c, d, { variant: 'dynamo', colour: 'black', fen: '2bqkbnr/pppppppp/8/P7/8/8/1PPP1PPP/RNB1KBNR b 3 ahih wpa5/wpa2' });
  await playTurnBy(c, id, tn => tn.uci === 'c8a8,d8b8', 'pull');
});

test('interweave chain and checkered switch by clicks', async t => {
  let a = await t.page(), b = await t.page();
  let id = await setup(a, b, { variant: 'interweave', colour: 'black', fen: 'rbnkknbr/ppp2ppp/1N6/4p3/3P4/6P1/P1PPPPP1/RB1KKNBR b 7 - 000000' });
  const chain = await playTurnBy(a, id, tn => tn.uci.includes(','), 'chain');
  assert(chain.uci.split(',').length >= 2, 'a chain of captures');
  a = await t.page(); b = await t.page();
  id = await setup(a, b, { variant: 'checkered', colour: 'black', fen: 'r1bqkbnr/pppppp1p/2n5/6o1/8/2P5/PP1PPPPP/RNBQKB1R b 5 ahah1111111111111101 - - 1' });
  {
    const st = await api(a, `/api/games/${id}`);
    const sw = st.legal.find(tn => tn.uci.startsWith('0000,'));
    await a.click('#parts button[data-part="0000"]');
    await a.waitForFunction(() => document.body.dataset.prefix === '0000');
    assert(/only the checkered pieces/.test(await a.textContent('#parts')), 'after the switch: only checkered pieces move');
    await noMachineText(a, 'checkered switch');
    await enter(a, sw, st.legal, 1);
    await waitPly(a, st.ply + 1);
  }
});

both('promotion: a chooser with the pieces\' pictures, queen first', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  await setup(a, b, { variant: 'chess', colour: 'white', fen: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1' });
  await click(a, 'a7');
  await click(a, 'a8');
  await a.waitForSelector('#choice');
  const first = a.locator('#choice button[data-part]').first();
  assert((await first.getAttribute('data-part')) === 'a7a8q', 'the queen comes first');
  assert((await a.locator('#choice button[data-part] piece').count()) >= 4, 'every choice has its picture');
  const bg = await a.locator('#choice button[data-part] piece').first().evaluate(e => getComputedStyle(e).backgroundImage);
  assert(bg.startsWith('url('), 'the queen is drawn: ' + bg);
  await noMachineText(a, 'promotion chooser');
  await a.click('#choice button[data-part="a7a8r"]');
  await waitPly(a, 1);
  assert((await pieceAt(a, 'a8')).includes('r-piece'), 'a rook on a8');
});

both('the board turns to the player\'s side on join and on rematch', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  await setup(a, b, { variant: 'chess', colour: 'white' });
  const orient = p => p.evaluate(() => document.querySelector('#board.orientation-black') ? 'black' : 'white');
  assert((await orient(a)) === 'white', 'the creator (white) sees white at the bottom');
  assert((await orient(b)) === 'black', 'the player who joined as black sees black at the bottom');
  // A rematch: colours change sides. Before both have moved a game is aborted, not resigned.
  assert((await a.locator('#resign').count()) === 0, 'no resigning before both sides have moved');
  await a.click('#abort');
  await a.waitForFunction(() => document.body.dataset.status === 'aborted');
  await b.waitForSelector('#rematch');
  await b.click('#rematch');
  await a.waitForSelector('#rematch-accept');
  await a.click('#rematch-accept');
  for (const p of [a, b]) await p.waitForFunction(() => document.body.dataset.status === 'playing' && document.body.dataset.you);
  for (const p of [a, b]) {
    const you = await data(p, 'you');
    assert((await orient(p)) === you, `after the rematch the board shows ${you} at the bottom, not ${await orient(p)}`);
  }
});

both('unknown game: a plain not-found page, no board, no reconnecting', async (t, device) => {
  const p = await t.page(device);
  let sockets = 0;
  p.on('websocket', () => sockets++);
  await p.goto(base + '/game/doesnotexist');
  await p.waitForSelector('#notfound');
  await p.waitForTimeout(1500);
  assert((await p.locator('cg-board, #board, .player').count()) === 0, 'no board frame');
  assert(sockets <= 1, `${sockets} connections: no reconnect loop`);
  assert((await p.textContent('#notfound')).includes('Not found'), 'says not found');
});

both('coordinates, sounds (muted setting kept), premove, and a new move brings the board back live', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  const id = await setup(a, b, { variant: 'chess', colour: 'white' });
  assert((await a.locator('#board coords').count()) >= 1, 'board coordinates');
  // Sounds: a move, then a capture.
  await drag(a, 'e2', 'e4');
  await waitPly(b, 1);
  assert(/^move:/.test(await data(b, 'sound')), 'a move sound: ' + await data(b, 'sound'));
  await drag(b, 'd7', 'd5');
  await waitPly(a, 2);
  await drag(a, 'e4', 'd5');
  await waitPly(b, 3);
  assert(/^capture:/.test(await data(b, 'sound')), 'a capture sound: ' + await data(b, 'sound'));
  // A premove: a moves while b is to move; it is played as soon as b has moved.
  await drag(a, 'g1', 'f3');
  await a.waitForTimeout(300);
  assert((await data(a, 'ply')) === '3', 'the premove waits for its time');
  await drag(b, 'd8', 'd5');
  await waitPly(a, 5);
  let st = await api(a, `/api/games/${id}`);
  assert(st.moves[4].uci === 'g1f3', 'the premove was played: ' + st.moves[4].uci);
  // a looks at an earlier position; b's move brings a back to the game now.
  await a.click('#first');
  assert((await data(a, 'view')) === '0', 'a looks at the start');
  await drag(b, 'b8', 'c6');
  await waitPly(a, 6);
  await a.waitForFunction(() => document.body.dataset.view === 'live');
  // Muting is kept across a reload.
  await a.click('#sound');
  await a.reload();
  await a.waitForSelector('#sound');
  assert((await a.textContent('#sound')).includes('off'), 'muted after a reload');
  await drag(a, 'a2', 'a3');
  await waitPly(b, 7);
  await drag(b, 'a7', 'a6');
  await waitPly(a, 8);
  await a.waitForTimeout(100);
  assert((await data(a, 'sound')) === undefined, 'no sound when muted: ' + await data(a, 'sound'));
  st = await api(a, `/api/games/${id}`);
  assert(st.moves.length === 8, 'eight moves');
});

both('the move list is laid out by turn, several moves a turn (Progressif)', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  const id = await setup(a, b, { variant: 'chess', colour: 'white', conditions: ['progressif'] });
  const plays = [[a, 'e2', 'e4'], [b, 'e7', 'e5'], [b, 'd7', 'd5'], [a, 'd2', 'd4'], [a, 'g1', 'f3'], [a, 'b1', 'c3']];
  for (const [i, [p, from, to]] of plays.entries()) {
    await click(p, from);
    await click(p, to);
    await waitPly(a, i + 1);
    await waitPly(b, i + 1);
  }
  const rows = await b.evaluate(() => [...document.querySelectorAll('#moves .turn-row')].map(r =>
    [r.querySelector('.num').textContent, ...[...r.querySelectorAll('.cell')].map(c => c.querySelectorAll('.mv').length)]));
  assert(JSON.stringify(rows) === JSON.stringify([['1.', 1, 2], ['2.', 3, 0]]), 'rows by turn: ' + JSON.stringify(rows));
  const st = await api(a, `/api/games/${id}`);
  assert(st.moves.length === 6, 'six moves');
});

test('conditions page: each condition its own text, from the server; the client bundle holds none', async t => {
  const p = await t.page();
  await p.goto(base + '/conditions');
  await p.waitForSelector('#conditions tbody tr');
  const { conditions } = await api(p, '/api/conditions');
  const rows = await p.evaluate(() => [...document.querySelectorAll('#conditions tbody tr')].map(r => [r.querySelector('.name').textContent, r.querySelector('.summary').textContent]));
  assert(rows.length === conditions.length, `${rows.length} rows for ${conditions.length} conditions`);
  const empty = rows.filter(([, s]) => !s.trim()).map(([n]) => n);
  assert(!empty.length, 'conditions without a text: ' + empty.join(', '));
  const seen = new Map();
  for (const [n, s] of rows) { assert(!seen.has(s), `${n} and ${seen.get(s)} share one text`); seen.set(s, n); }
  const bundle = await p.evaluate(async () => (await fetch('/assets/app.js')).text());
  const held = conditions.filter(c => c.summary && bundle.includes(c.summary.slice(0, 40))).map(c => c.name);
  assert(!held.length, 'the client bundle holds condition texts: ' + held.join(', '));
  // Nor the variants' rules texts: the rules pages show their descriptors'.
  const { variants } = await api(p, '/api/variants');
  const paragraphs = variants.flatMap(v => v.rules.flatMap(sec => sec.text.map(x => [v.name, x])));
  assert(paragraphs.length >= 10, `${paragraphs.length} rules paragraphs served`);
  const inBundle = paragraphs.filter(([, x]) => bundle.includes(x.slice(0, 40))).map(([v]) => v);
  assert(!inBundle.length, 'the client bundle holds rules texts of: ' + [...new Set(inBundle)].join(', '));
  await p.goto(base + '/rules/fugue');
  await p.waitForSelector('.rules h2');
  const shown = await p.textContent('.rules');
  const fugue = variants.find(v => v.name === 'fugue');
  assert(fugue.rules.every(sec => shown.includes(sec.heading) && sec.text.every(x => shown.includes(x))), 'the Fugue page shows its descriptor\'s sections');
});

/** The squares lit as the last move on the page's board. */
async function lastMove(page) {
  const box = await page.locator('#board cg-board').boundingBox();
  const flipped = await page.evaluate(() => !!document.querySelector('#board.orientation-black'));
  const rects = await page.evaluate(() => [...document.querySelectorAll('#board cg-board square.last-move')].map(e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }));
  return rects.map(([x, y]) => {
    const col = Math.floor((x - box.x) / (box.width / 8)), row = Math.floor((y - box.y) / (box.height / 8));
    const f = flipped ? 7 - col : col, r = flipped ? row : 7 - row;
    return 'abcdefgh'[f] + (r + 1);
  }).sort().join(' ');
}

both('last-move highlight: the real origin and destination of the turn', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  let id = await setup(a, b, { variant: 'chess', colour: 'white', fen: 'rnbqkbnr/ppp1pppp/8/8/4p3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3' });
  await click(a, 'c3');
  await click(a, 'e4');
  await waitPly(b, 1);
  assert((await lastMove(b)) === 'c3 e4', 'Nxe4 lights c3 and e4: ' + await lastMove(b));
  const c = await t.page(device), d = await t.page(device);
  id = await setup(c, d, { variant: 'fugue', colour: 'white', fen: '4k3/8/2pL4/8/8/8/8/4K3 w 0' });
  await click(c, 'd6');
  await click(c, 'a6');
  await waitPly(d, 1);
  assert((await lastMove(d)) === 'a6 d6', 'the long leaper\'s d6-a6 lights d6 and a6: ' + await lastMove(d));
});

both('super-circe: the rebirth square is chosen on the board', async (t, device) => {
  const a = await t.page(device), b = await t.page(device);
  const id = await setup(a, b, { variant: 'chess', colour: 'white', conditions: ['super-circe'], fen: '4k3/8/8/3b4/4P3/8/8/4K3 w - - 0 1' });
  await click(a, 'e4');
  await click(a, 'd5');
  await a.waitForSelector('.offer-square');
  assert((await a.locator('#choice').count()) === 0, 'no wall of buttons');
  const st = await api(a, `/api/games/${id}`);
  const offered = await a.locator('.offer-square').count();
  const reborn = st.legal.filter(tn => tn.uci.startsWith('e4d5') && /\+[a-h][1-8]:bb/.test(tn.canonical));
  assert(offered === reborn.length, `${offered} squares offered for ${reborn.length} rebirths`);
  await noMachineText(a, 'super-circe choice');
  await a.click('.offer-square[data-square="h1"]');
  await waitPly(b, 1);
  const after = await api(a, `/api/games/${id}`);
  assert(after.moves[0].canonical.includes('+h1:bb'), 'the bishop is reborn on h1: ' + after.moves[0].canonical);
  assert((await pieceAt(b, 'h1')).includes('b-piece'), 'b sees the bishop on h1');
});

both('the check highlight and the spectator count', async (t, device) => {
  const a = await t.page(device), b = await t.page(device), c = await t.page(device);
  const id = await setup(a, b, { variant: 'chess', colour: 'white' });
  await c.goto(base + '/game/' + id);
  await c.waitForFunction(() => document.body.dataset.status === 'playing');
  await a.waitForFunction(() => /[2-9] watching/.test(document.getElementById('watchers')?.textContent));
  t.log('watchers shown: ' + await a.textContent('#watchers'));
  for (const [i, [p, from, to]] of [[a, 'e2', 'e4'], [b, 'f7', 'f6'], [a, 'd1', 'h5']].entries()) {
    await click(p, from);
    await click(p, to);
    await waitPly(b, i + 1);
  }
  await b.waitForSelector('#board square.check');
  assert((await b.locator('#board square.check').count()) === 1, 'the king in check is lit');
});

test('your games: a game its player left is resumed from the lobby, and not listed as being played', async t => {
  const a = await t.page(), b = await t.page();
  await a.goto(base + '/');
  const g = await api(a, '/api/games', { variant: 'chess', opponent: 'computer', colour: 'white', level: 1 });
  await a.goto(base + '/game/' + g.id);
  await a.waitForFunction(() => document.body.dataset.status === 'playing' && document.body.dataset.you === 'white');
  await a.goto(base + '/');
  await a.waitForSelector(`#mine tr[data-id="${g.id}"]`);
  assert(/resume/.test(await a.textContent(`#mine tr[data-id="${g.id}"]`)), 'offered to resume');
  // Its player gone, it is not "being played" (the lobby refreshes every 3 s).
  await a.waitForFunction(id => !document.querySelector(`#live tr[data-id="${id}"]`), g.id, { timeout: 8000 });
  // Another person does not see it among theirs.
  await b.goto(base + '/');
  await b.waitForSelector('#seeks tr');
  assert(await b.locator(`#mine tr[data-id="${g.id}"]`).count() === 0 && await b.locator('#mine-panel.hidden').count() === 1, 'not in another person\'s games');
  await a.click(`#mine tr[data-id="${g.id}"]`);
  await a.waitForFunction(() => document.body.dataset.status === 'playing' && document.body.dataset.you === 'white');
  assert(new URL(a.url()).pathname === '/game/' + g.id, 'the game is resumed: ' + a.url());
});

/** Runs `fn(url)` against a server of its own (a fresh file) started with `args`
 *  (shortened timers), stopped afterwards. */
async function ownServer(t, args, fn) {
  const dir = mkdtempSync(join(tmpdir(), 'chimere-timers-'));
  const own = new Server(server.bin, join(dir, 'own.db'), args);
  await own.start();
  try { await fn(own.url); } finally {
    await own.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a seek lives while its creator is there, and goes from the lobby when they leave (timer shortened to 2 s)', async t => {
  if (!server) { t.log('SKIPPED: needs --server'); skipped++; return; }
  await ownServer(t, ['--seek-grace-secs', '2'], async url => {
    const a = await t.page(), b = await t.page('phone');
    await a.goto(url + '/');
    await a.selectOption('#opponent', 'seek');
    await a.uncheck('#timed');
    await a.click('#create');
    await a.waitForURL(/\/game\//);
    await a.waitForFunction(() => document.body.dataset.status === 'waiting');
    const id = new URL(a.url()).pathname.split('/').pop();
    await b.goto(url + '/');
    const row = `#seeks tr[data-id="${id}"]`;
    await b.waitForSelector(row);
    // Its creator there, the seek outlives the grace (and two of the lobby's refreshes).
    await b.waitForTimeout(6500);
    assert(await b.locator(row).count() === 1, 'the seek is listed while its creator waits on its page');
    // The creator leaves: the seek leaves the lobby by itself, without a reload.
    const left = Date.now();
    await a.close();
    await b.waitForSelector(row, { state: 'detached', timeout: 12000 });
    t.log(`the seek left the lobby ${Date.now() - left} ms after its creator (grace 2 s, lobby refresh 3 s)`);
    assert(/No open seek/.test(await b.textContent('#seeks')), 'the lobby says there is no seek');
    // Its link says what happened, in words.
    await b.goto(url + '/game/' + id);
    await b.waitForFunction(() => document.body.dataset.status === 'aborted');
    const said = await b.textContent('#status');
    assert(/nobody took the seat/i.test(said), 'the page says why: ' + said);
  });
});

both('an unmoved game is aborted, a timed game its player left is lost by abandonment (timers shortened)', async (t, device) => {
  if (!server) { t.log('SKIPPED: needs --server'); skipped++; return; }
  await ownServer(t, ['--first-move-secs', '3', '--abandon-secs', '2'], async url => {
    // Nobody moves: the game is aborted by itself, and both pages say why.
    const a = await t.page(device), b = await t.page(device);
    await setup(a, b, { variant: 'chess', colour: 'white', minutes: 1, increment: 0 }, url);
    for (const p of [a, b]) await p.waitForFunction(() => document.body.dataset.status === 'aborted', null, { timeout: 10000 });
    const said = await a.textContent('#status');
    assert(/white did not make a first move/i.test(said), 'the page says why: ' + said);
    assert(!(await a.locator('#resign').count()), 'no resign button on an aborted game');
    // Both move, then Black's player leaves: White wins by abandonment, in words.
    const c = await t.page(device), d = await t.page(device);
    const id = await setup(c, d, { variant: 'chess', colour: 'white', minutes: 1, increment: 0 }, url);
    await drag(c, 'e2', 'e4');
    await waitPly(d, 1);
    await drag(d, 'e7', 'e5');
    await waitPly(c, 2);
    const left = Date.now();
    await d.close();
    await c.waitForFunction(() => document.body.dataset.status === 'finished', null, { timeout: 10000 });
    t.log(`abandonment declared ${Date.now() - left} ms after the player left (grace 2 s)`);
    const status = await c.textContent('#status');
    assert(/1-0|White wins/i.test(status) && /black left the game/i.test(status), 'the result in words: ' + status);
    const st = await api(c, `/api/games/${id}`);
    assert(st.result === '1-0' && st.moves.length === 2, 'stored: ' + st.result + ' after ' + st.moves.length + ' moves');
  });
});

both('no page scrolls sideways', async (t, device) => {
  const p = await t.page(device);
  // Something in every list: a seek with a long condition list, a finished game.
  await p.goto(base + '/rules');
  await api(p, '/api/name', { name: 'Anastasia Wolkonskaja' });
  await api(p, '/api/games', { variant: 'chess', opponent: 'seek', colour: 'white', conditions: ['circe', 'anticirce', 'einstein'], minutes: 5, increment: 3 });
  await p.evaluate(async () => { await fetch('/api/import', { method: 'POST', body: '[White "Wilhelmina Kasparova-Ostrogradskaja"]\n[Black "Bartholomäus Nimzowitsch-Larsen"]\n\n1. f3 e5 2. g4 Qh4# 0-1' }); });
  for (const path of ['/', '/archive', '/conditions', '/rules', '/rules/fugue']) {
    await p.goto(base + path);
    await p.waitForLoadState('networkidle');
    const over = await overflow(p);
    assert(over <= 0, `${path} scrolls sideways by ${over} px`);
  }
  const r = await api(p, '/api/games', { variant: 'dynamo', opponent: 'private', colour: 'white' });
  await p.goto(base + '/game/' + r.id);
  await p.waitForSelector('#board cg-board');
  assert((await overflow(p)) <= 0, `the game page scrolls sideways by ${await overflow(p)} px`);
}, { only: 'phone' });

test('archive, rules and conditions pages render; a finished game opens on the analysis board', async t => {
  const p = await t.page();
  await p.goto(base + '/archive');
  const imported = await p.evaluate(async () => (await fetch('/api/import', { method: 'POST', body: '[White "Ann"]\n[Black "Bob"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0' })).json());
  assert(imported.id, 'imported: ' + JSON.stringify(imported));
  await p.goto(base + '/archive');
  await p.click(`tr[data-id="${imported.id}"] button.analyse`);
  await p.waitForURL(/\/analysis#/);
  await p.waitForFunction(() => document.body.dataset.ply === '7' && document.body.dataset.variant === 'chess', null, { timeout: 10000 });
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
});

both('connection down: reconnecting shown at once, a move kept pending, sent on reconnect; refused: back to the server\'s position', async (t, device) => {
  if (!server) { t.log('SKIPPED: needs --server'); skipped++; return; }
  if (!server.proc) await server.start();
  const a = await t.page(device), b = await t.page(device);
  // b's reconnection can be held back (routeWebSocket), to let the game move on meanwhile.
  let holdB = false;
  await b.routeWebSocket(/\/ws\//, ws => { if (holdB) ws.close(); else ws.connectToServer(); });
  const id = await setup(a, b, { variant: 'chess', colour: 'white' });
  await server.kill();
  const t0 = Date.now();
  await a.waitForSelector('#connection:not(.hidden)', { timeout: 3000 });
  assert(/reconnecting/i.test(await a.textContent('#connection')), 'says reconnecting');
  t.log(`"Reconnecting…" shown ${Date.now() - t0} ms after the kill`);
  await drag(a, 'd2', 'd4');
  await a.waitForFunction(() => document.body.dataset.pending === 'd2d4');
  assert((await pieceAt(a, 'd4')).includes('p-piece'), 'the pending move is on the board');
  assert(/pending/i.test(await a.textContent('#status')), 'shown as pending: ' + await a.textContent('#status'));
  // A second move is not allowed meanwhile.
  await drag(a, 'g1', 'f3');
  assert((await data(a, 'pending')) === 'd2d4', 'one pending move');
  // A button pressed meanwhile is not sent, and the page says so (until the game is back).
  await a.click('#abort');
  assert(/not sent/i.test(await a.textContent('#notice')), 'the page says the abort was not sent: ' + await a.textContent('#notice'));
  await server.start();
  await waitPly(a, 1);
  await a.waitForFunction(() => document.body.dataset.pending === '' && document.body.dataset.connected === '1', null, { timeout: 10000 });
  assert(await a.locator('#notice.hidden').count() === 1, 'the notice went with the reconnection');
  let st = await api(a, `/api/games/${id}`);
  assert(st.moves.length === 1 && st.moves[0].uci === 'd2d4', 'the server has the move: ' + st.moves.map(m => m.uci));
  await waitPly(b, 1);
  // Refused: b moves while down; the game ends (a aborts: black has not moved) before b is back.
  await server.kill();
  await b.waitForSelector('#connection:not(.hidden)');
  holdB = true;
  await drag(b, 'e7', 'e5');
  await b.waitForFunction(() => document.body.dataset.pending === 'e7e5');
  await server.start();
  await a.waitForFunction(() => document.body.dataset.connected === '1', null, { timeout: 10000 });
  await a.click('#abort');
  await a.waitForFunction(() => document.body.dataset.status === 'aborted');
  holdB = false;
  await b.waitForFunction(() => document.body.dataset.status === 'aborted' && document.body.dataset.pending === '', null, { timeout: 15000 });
  assert(/not played/.test(await b.textContent('#notice')), 'a message says so: ' + await b.textContent('#notice'));
  await b.waitForTimeout(300);
  assert((await pieceAt(b, 'e7')).includes('p-piece') && (await pieceAt(b, 'e5')) === '', `the board is back to the server's position: e7 ${await pieceAt(b, 'e7')}, e5 ${await pieceAt(b, 'e5')}`);
  st = await api(a, `/api/games/${id}`);
  assert(st.moves.length === 1, 'the server has no second move');
}, { exclusive: true });

// ---------- run ----------

const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const chosen = tests.filter(x => (!only || only.test(x.name)) && (!x.only || x.name.endsWith(`[${x.only}]`)));
const jobs = Math.max(1, Number(process.env.JOBS || 3));
const t0 = Date.now();
const queue = chosen.filter(x => !x.exclusive);
await Promise.all(Array.from({ length: jobs }, async () => { while (queue.length) await run(queue.shift()); }));
for (const x of chosen.filter(x => x.exclusive)) await run(x);

// The game pages' own rules (WebAssembly) offered exactly the server's turns everywhere.
await run({
  name: 'the game pages\' rules in the browser agreed with the server\'s on every position shown',
  fn: async () => assert(!disagreements.length, `${disagreements.length} disagreements:\n  ${disagreements.slice(0, 10).join('\n  ')}`),
});

// Every message the server sent, decoded strictly by the client's own decoders.
await run({
  name: `the client's protocol types read every message the server sent (${frames.length} WebSocket messages, ${responses.length} API answers)`,
  fn: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chimere-protocol-'));
    try {
      buildSync({ entryPoints: [new URL('../src/protocol.ts', import.meta.url).pathname], bundle: true, format: 'esm', platform: 'node', outfile: join(dir, 'protocol.mjs'), logLevel: 'silent' });
      const proto = await import(join(dir, 'protocol.mjs'));
      const { strictness } = await import(join(dir, 'protocol.mjs'));
      strictness.strict = true;
      const errors = new Set();
      const check = (what, decoder, text) => {
        try { decoder(JSON.parse(text), ''); } catch (e) { errors.add(`${what}: ${e.message}`); }
      };
      for (const f of frames) check('ws', proto.serverMsg, f);
      const byPath = { '/api/lobby': proto.lobby, '/api/variants': proto.variantsInfo, '/api/conditions': proto.conditionsList, '/api/me': proto.me, '/api/archive': proto.archive };
      for (const [path, text] of responses) if (byPath[path]) check(path, byPath[path], text);
      const unknown = [...new Set(strictness.unknown.map(u => u.replace(/\[\d+\]/g, '[]')))];
      assert(!errors.size, `messages the client cannot read:\n  ${[...errors].slice(0, 10).join('\n  ')}`);
      assert(!unknown.length, `fields the client's types do not declare: ${unknown.join(', ')}`);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  },
});

await browser.close();
if (server) await server.kill();
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped (see above)` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);
