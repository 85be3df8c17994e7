// Browser tests of the problems page (`/problems`): Debian's chromium driven by
// playwright-core against a running server.
// Usage: node tests/problems.mjs http://127.0.0.1:PORT EXPECTED.json
// EXPECTED.json (crates/server/tests/problems.rs): {solo: [{source, input, text, errors, ms}],
// paste: {input, text}}, the texts printed by the native solver.
// Prints one line per test and `N passed, N failed`; exit 1 on a failure.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';

const [base, file] = process.argv.slice(2);
if (!base || !file) { console.error('usage: node tests/problems.mjs http://127.0.0.1:PORT EXPECTED.json'); process.exit(2); }
const expected = JSON.parse(readFileSync(file, 'utf8'));
const shots = 'test-artifacts';
mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
let passed = 0, failed = 0;
async function test(name, f) {
  const t0 = Date.now();
  try { await f(); passed++; console.log(`ok   ${name} (${Date.now() - t0} ms)`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e.stack || e}`); }
}
function assert(c, msg) { if (!c) throw new Error(msg); }
/** The solution lines: without the closing time line (it differs run to run). */
const lines = t => t.split('\n').filter(l => !l.startsWith('solution finished')).join('\n').trimEnd();

async function open(width = 1100, hash = '') {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', e => console.log('  page error:', e.message));
  await page.goto(base + '/problems' + hash);
  await page.waitForSelector('#solve');
  return page;
}
async function solveAndWait(page, timeout = 60000) {
  await page.click('#solve');
  await page.waitForFunction(() => /^Solved in/.test(document.getElementById('solve-status')?.textContent), null, { timeout });
}

await test('the solver in WebAssembly prints the lines chimere solve prints (a dozen corpus problems)', async () => {
  const page = await open();
  const got = await page.evaluate(async (solo) => {
    const out = [];
    for (const e of solo) {
      const w = new Worker('/assets/problems-worker.js', { type: 'module' });
      const r = await new Promise((resolve, reject) => {
        let streamed = '';
        w.onmessage = m => {
          if (m.data.t === 'text') streamed += m.data.chunk;
          if (m.data.t === 'done') resolve({ results: m.data.results, ms: m.data.ms, streamed });
          if (m.data.t === 'error') reject(new Error(m.data.message));
        };
        w.postMessage({ t: 'solve', id: 1, input: e.input });
      });
      w.terminate();
      out.push(r);
    }
    return out;
  }, expected.solo);
  let bad = [];
  expected.solo.forEach((e, i) => {
    const text = got[i].results.map(r => r.text).join('');
    const same = lines(text) === lines(e.text) && lines(got[i].streamed) === lines(e.text);
    const played = got[i].results.every(r => r.twins.every(t => JSON.stringify(t.tree).indexOf('"board":null') < 0));
    console.log(`  ${same && played ? 'same' : 'DIFF'} ${e.source}: wasm ${got[i].ms.toFixed(0)} ms, native ${e.ms.toFixed(0)} ms`);
    if (!same || !played) bad.push(e.source);
  });
  assert(!bad.length, `differ: ${bad.join(', ')}`);
});

await test('three problems pasted give the same lines as chimere solve, and their tree plays on the board', async () => {
  const page = await open();
  await page.fill('#popeye', expected.paste.input);
  await page.waitForFunction(() => /3 problems/.test(document.getElementById('popeye-error')?.textContent));
  await solveAndWait(page);
  const out = await page.textContent('#output');
  assert(lines(out) === lines(expected.paste.text), `output differs:\n${out}\n---\n${expected.paste.text}`);
  // A key of the first problem: click it, the board shows the position after it.
  const key = page.locator('#solution-tree .pz-key .pz-ply').first();
  const move = await key.textContent();
  await key.click();
  const to = move.match(/([a-h][1-8])(?!.*[a-h][1-8])/)[1];
  assert(await page.locator(`#problem-board [data-square=${to}] .pz-unit`).count() === 1, `a unit on ${to} after ${move}`);
  assert((await page.textContent('#board-note')).includes(move), 'the note names the move');
  // A help line: each move plays in turn.
  const plies = page.locator('#solution-tree .pz-line').first().locator('.pz-ply');
  const n = await plies.count();
  assert(n >= 4, `a help line of ${n} moves`);
  for (let i = 0; i < n; i++) {
    await plies.nth(i).click();
    assert(await plies.nth(i).evaluate(e => e.classList.contains('current')), `move ${i + 1} shown`);
  }
  await page.screenshot({ path: `${shots}/problems-pasted.png`, fullPage: true });
});

await test('compose by clicks: a fairy piece, a condition with a parameter, a stipulation; solve and click through', async () => {
  const page = await open();
  await page.click('#clear-board');
  const place = async (side, piece, sq) => {
    await page.click(`.pz-side[data-side=${side}]`);
    await page.click(`.pz-pick[data-piece="${piece}"]`);
    await page.click(`#problem-board [data-square=${sq}]`);
  };
  await place('white', 'K', 'b6');
  await place('white', 'Q', 'c1');
  await place('black', 'K', 'a8');
  await place('black', 'G', 'h1');
  await place('neutral', 'P', 'e2');
  const title = await page.locator('.pz-pick[data-piece=G]').getAttribute('title');
  assert(/grasshopper/i.test(title), `the picker names the piece on hover: ${title}`);
  // Conditions are listed and titled by Popeye's keyword, the registry's name beside it.
  await page.selectOption('#add-condition', { label: 'Hole (trou)' });
  assert(await page.textContent('.pz-cond[data-condition=Hole] .pz-cond-title') === 'Hole', 'titled by the Popeye keyword');
  assert(await page.textContent('.pz-cond[data-condition=Hole] .pz-cond-name') === 'trou', 'the registry name beside it');
  await page.fill('.pz-cond[data-condition=Hole] .pz-params', 'd4');
  assert((await page.textContent('.pz-cond[data-condition=Hole]')).includes('holes'), 'the condition says what it does');
  assert(await page.locator('#problem-board [data-square=d4].hole').count() === 1, 'the hole drawn');
  await page.fill('#stipulation', '#2');
  const text = await page.inputValue('#popeye');
  for (const w of ['Condition Hole d4', 'White Kb6 Qc1', 'Black Ka8 Gh1', 'Neutral Pe2', 'Stipulation #2']) assert(text.includes(w), `the text has ${w}:\n${text}`);
  await solveAndWait(page);
  const key = page.locator('#solution-tree .pz-key .pz-ply').first();
  assert(await key.count() === 1, 'a key');
  await key.click();
  const note = await page.textContent('#board-note');
  assert(note.startsWith('After'), note);
  await page.click('#show-diagram');
  assert(await page.locator('#problem-board [data-square=h1] .pz-unit[data-piece=G]').count() === 1, 'back to the diagram');
  await page.screenshot({ path: `${shots}/problems-composed.png`, fullPage: true });
});

await test('the form and the Popeye text stay in step; an error is shown with its line', async () => {
  const page = await open();
  await page.fill('#popeye', 'BeginProblem\nCondition Circe\nPieces White Kd4 Rg7 Black Ke1 Neutral Bc3\nStipulation h#2\nOption SetPlay Defence 2\nTwin Move d4 e4\nEndProblem\n');
  await page.waitForSelector('.pz-cond[data-condition=Circe]');
  assert(await page.inputValue('#stipulation') === 'h#2', 'the stipulation follows the text');
  assert(await page.isChecked('#opt-setplay'), 'SetPlay ticked');
  assert(await page.inputValue('#opt-defence-value') === '2', 'Defence 2');
  const twin = '.pz-twin-row[data-twin="0"] .pz-twin-cmd[data-cmd="0"]';
  assert(await page.inputValue(`${twin} .pz-twin-kind`) === 'Move', 'the twin\'s kind');
  assert(await page.inputValue(`${twin} [data-arg="0"]`) === 'd4' && await page.inputValue(`${twin} [data-arg="1"]`) === 'e4', 'the twin\'s squares');
  assert(await page.locator('#problem-board [data-square=c3] .pz-unit.neutral').count() === 1, 'the neutral bishop on the board');
  await page.fill('#stipulation', 'ser-h#3');
  assert((await page.inputValue('#popeye')).includes('Stipulation ser-h#3'), 'the text follows the form');
  await page.fill('#popeye', 'BeginProblem\nPieces White Kd4 Black Ke1\nCondition NoSuchCondition\nStipulation #2\nEndProblem\n');
  await page.waitForFunction(() => /^Line 3:/.test(document.getElementById('popeye-error')?.textContent));
});

await test('a long solve shows its progress and is cancelled at once', async () => {
  const page = await open();
  await page.fill('#popeye', 'BeginProblem\nPieces White Ke1 Qd1 Ra1 Rh1 Bc1 Bf1 Sb1 Sg1 Black Ke8 Qd8 Ra8 Rh8 Bc8 Bf8 Sb8 Sg8\nStipulation h#6\nOption MoveNumbers\nEndProblem\n');
  await page.waitForTimeout(400);
  await page.click('#solve');
  // The clock runs while it solves (and MoveNumbers lines appear as first moves are done).
  await page.waitForFunction(() => /^Solving… [1-9]/.test(document.getElementById('solve-status')?.textContent), null, { timeout: 30000 });
  const t0 = Date.now();
  await page.click('#cancel');
  await page.waitForFunction(() => /^Cancelled/.test(document.getElementById('solve-status')?.textContent));
  const ms = Date.now() - t0;
  assert(ms < 1000, `cancelled in ${ms} ms`);
  assert(await page.isEnabled('#solve'), 'Solve again');
  // The page answers at once.
  await page.fill('#stipulation', '#2');
  assert((await page.inputValue('#popeye')).includes('Stipulation #2'), 'the page is responsive');
  console.log(`  cancel answered in ${ms} ms`);
});

await test('phone width: nothing scrolls sideways', async () => {
  const page = await open(375);
  await page.fill('#popeye', expected.paste.input);
  await page.waitForTimeout(400);
  await solveAndWait(page);
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.screenshot({ path: `${shots}/problems-phone.png`, fullPage: true });
  assert(w <= 375, `page width ${w}`);
  const board = await page.locator('#problem-board').boundingBox();
  assert(board.width <= 375 && board.width > 250, `board ${board.width}px`);
});

await test('twins by controls: two twins, the Popeye text shows them, the solve prints each twin as chimere solve does (phone width)', async () => {
  const page = await open(375);
  await page.fill('#popeye', expected.twins.base);
  await page.waitForSelector('#add-twin');
  await page.waitForTimeout(400);
  // The kinds offered are the solver's own (its catalogue), not a list of the page's.
  const kinds = await page.evaluate(() => document.querySelectorAll('.pz-twin-kind').length);
  assert(kinds === 0, 'no twin yet');
  await page.click('#add-twin');
  const row = i => `.pz-twin-row[data-twin="${i}"]`;
  const offered = await page.$$eval(`${row(0)} .pz-twin-kind option`, os => os.map(o => o.value));
  for (const k of ['Move', 'Exchange', 'Remove', 'Add', 'Substitute', 'Rotate', 'Mirror', 'Shift', 'PolishType', 'Condition', 'Stipulation']) assert(offered.includes(k), `${k} offered: ${offered}`);
  await page.fill(`${row(0)} [data-cmd="0"] [data-arg="0"]`, 'g3');
  await page.fill(`${row(0)} [data-cmd="0"] [data-arg="1"]`, 'h3');
  await page.click('#add-twin');
  await page.check(`${row(1)} .pz-twin-continued`);
  await page.selectOption(`${row(1)} [data-cmd="0"] .pz-twin-kind`, 'Substitute');
  await page.selectOption(`${row(1)} [data-cmd="0"] [data-arg="0"]`, 'R');
  await page.selectOption(`${row(1)} [data-cmd="0"] [data-arg="1"]`, 'Q');
  await page.click(`${row(1)} .pz-twin-add-cmd`);
  await page.selectOption(`${row(1)} [data-cmd="1"] .pz-twin-kind`, 'Rotate');
  await page.selectOption(`${row(1)} [data-cmd="1"] [data-arg="0"]`, '180');
  const text = await page.inputValue('#popeye');
  for (const l of expected.twins.lines) assert(text.includes(l + '\n'), `the text has ${l}:\n${text}`);
  assert(await page.textContent('#popeye-error') === '', 'no error: ' + await page.textContent('#popeye-error'));
  // A twin removed and the text edited: the rows follow the text.
  await page.fill('#popeye', text.replace(expected.twins.lines[1] + '\n', ''));
  await page.waitForFunction(() => document.querySelectorAll('.pz-twin-row').length === 1);
  await page.fill('#popeye', text);
  await page.waitForFunction(() => document.querySelectorAll('.pz-twin-row').length === 2);
  assert(await page.inputValue(`${row(1)} [data-cmd="1"] [data-arg="0"]`) === '180', 'the rotation read back');
  await solveAndWait(page);
  const out = await page.textContent('#output');
  assert(lines(out) === lines(expected.twins.text), `output differs:\n${out}\n---\n${expected.twins.text}`);
  const labels = await page.$$eval('#solution-tree .pz-twin-label', ls => ls.map(l => l.textContent.trim()));
  assert(labels.length === 3, `three twins in the tree: ${labels}`);
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.screenshot({ path: `${shots}/problems-twins-phone.png`, fullPage: true });
  assert(w <= 375, `page width ${w}`);
});

const IMPORT = `BeginProblem
Author Ann Composer
Origin Test Collection 2026
Condition Circe
Pieces White Kd4 Bh8 Rg7 Black Ke1
Stipulation #3
Option NoBoard Variation
Twin Remove h8
NextProblem
Condition Hole e5
Pieces White Kf3 Pg5 Qh4 Black Kh6 Gg6
Stipulation h=2
Option NoBoard
NextProblem
Pieces White Ke1 Black Ke8
Condition NoSuchCondition
Stipulation #2
NextProblem
Pieces White Ke1 Black Ke8
Stipulation h#99
EndProblem
`;

await test('import a Popeye file into the collection: a report per problem; find one by condition; the server solves it', async () => {
  const page = await open();
  await page.goto(base + '/collection');
  await page.waitForSelector('#import');
  await page.fill('#import-text', IMPORT);
  await page.click('#import');
  await page.waitForSelector('#import-report li');
  const report = await page.textContent('#import-report');
  assert(report.includes('2 saved, 2 refused'), report);
  assert(/Problem 3 \(line 16\): unknown or unsupported condition/.test(report), report);
  assert(/Problem 4 \(line 20\): the stipulation h#99 has 99 moves, over the limit of 30/.test(report), report);
  await page.selectOption('#filter-condition', 'Hole');
  await page.waitForFunction(() => document.getElementById('problem-count')?.textContent.startsWith('1 problem'));
  assert((await page.textContent('#problem-list')).includes('h=2'), 'the Hole problem is found');
  await page.selectOption('#filter-condition', '');
  await page.selectOption('#filter-piece', 'G');
  await page.waitForFunction(() => document.getElementById('problem-count')?.textContent.startsWith('1 problem'));
  await page.selectOption('#filter-piece', '');
  await page.fill('#filter-text', 'ann composer');
  await page.waitForFunction(() => document.getElementById('problem-count')?.textContent.startsWith('1 problem'));
  // The permalink: the problem, and the solution the server computed (its queue).
  await page.click('#problem-list .pz-item');
  await page.waitForSelector('#stored');
  await page.waitForFunction(() => document.getElementById('stored')?.textContent.includes('Ann Composer'));
  for (let i = 0; i < 60; i++) {
    if ((await page.textContent('#stored')).includes('solved by the server')) break;
    await page.waitForTimeout(250);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('stored')?.textContent.includes('Ann Composer'));
  }
  const stored = await page.textContent('#stored-solution');
  assert(stored.includes('1.Kd4-e3 ! threat:'), stored);
  assert((await page.inputValue('#stipulation')) === '#3', 'the form shows it');
  await page.screenshot({ path: `${shots}/problems-collection-permalink.png`, fullPage: true });
});

await test('export as Popeye input and import it again: the same problems', async () => {
  const page = await open();
  await page.goto(base + '/collection');
  await page.waitForFunction(() => /problems?$/.test(document.getElementById('problem-count')?.textContent));
  const href = await page.getAttribute('#export', 'href');
  const text = await page.evaluate(async h => (await fetch(h)).text(), href);
  assert(/^BeginProblem\n/.test(text) && /NextProblem/.test(text) && text.trimEnd().endsWith('EndProblem'), text);
  const before = await page.evaluate(async () => (await (await fetch('/api/problems?limit=1000')).json()).problems.length);
  const r = await page.evaluate(async t => (await fetch('/api/problems', { method: 'POST', body: t })).json(), text);
  assert(r.report.every(x => !x.error), JSON.stringify(r));
  assert(r.saved === before, `${r.saved} re-imported of ${before}`);
  const again = await page.evaluate(async ids => (await fetch(`/api/problems/export?ids=${ids}`)).text(), r.report.map(x => x.id).join(','));
  assert(again === text, `the round trip differs:\n${again}\n---\n${text}`);
});

await test('hostile input: a 10 MB paste and 10 000 problems are refused naming the limit, nothing saved', async () => {
  const page = await open();
  const before = await page.evaluate(async () => (await (await fetch('/api/problems?limit=1000')).json()).problems.length);
  const big = await page.evaluate(async () => {
    const r = await fetch('/api/problems', { method: 'POST', body: 'x'.repeat(10 << 20) });
    return [r.status, (await r.json()).error];
  });
  assert(big[0] === 413 && /10\.0 MB, over the limit of 1\.0 MB/.test(big[1]), JSON.stringify(big));
  const many = await page.evaluate(async () => {
    const one = 'Pieces White Ke1 Black Ke8\nStipulation #1\n';
    const body = 'BeginProblem\n' + Array(10000).fill(one).join('NextProblem\n') + 'EndProblem\n';
    const r = await fetch('/api/problems', { method: 'POST', body });
    return [r.status, (await r.json()).error];
  });
  assert(many[0] === 413 && /^line 1501: problem 501 is over the limit of 500 problems/.test(many[1]), JSON.stringify(many));
  const after = await page.evaluate(async () => (await (await fetch('/api/problems?limit=1000')).json()).problems.length);
  assert(after === before, 'nothing saved');
});

await test('save a composed problem: a permalink', async () => {
  const page = await open();
  await page.fill('#popeye', expected.solo[0].input);
  await page.waitForTimeout(400);
  await page.click('#save');
  await page.waitForSelector('#save-report a');
  const href = await page.getAttribute('#save-report a', 'href');
  await page.goto(base + href);
  await page.waitForFunction(() => document.getElementById('stored')?.textContent.includes('In the collection'));
});

await test('"Set up as problem" from the analysis board', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', e => console.log('  page error:', e.message));
  await page.goto(base + '/analysis');
  await page.waitForSelector('#as-problem');
  await page.fill('#fen-input', '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  await page.click('#open-fen');
  await page.click('#as-problem');
  await page.waitForSelector('#problem-board');
  await page.waitForFunction(() => /Pieces White Ra1 Kg1 Black Kg8 Pf7 Pg7 Ph7|Pieces White/.test(document.getElementById('popeye')?.value));
  const text = await page.inputValue('#popeye');
  for (const w of ['Ra1', 'Kg1', 'Kg8', 'Pf7', 'Pg7', 'Ph7']) assert(text.includes(w), `${w} in\n${text}`);
  await page.fill('#stipulation', '#1');
  await solveAndWait(page);
  assert((await page.textContent('#output')).includes('1.Ra1-a8 #'), await page.textContent('#output'));
});

await test('"Set up as problem" from a game: a position gone back to, with the game\'s conditions', async () => {
  const [a, b] = [await browser.newContext({ viewport: { width: 1100, height: 900 } }), await browser.newContext({ viewport: { width: 375, height: 812 } })].map(c => c.newPage());
  const [pa, pb] = await Promise.all([a, b]);
  for (const p of [pa, pb]) p.on('pageerror', e => console.log('  page error:', e.message));
  await pa.goto(base + '/rules');
  const game = await pa.evaluate(async () => (await fetch('/api/games', { method: 'POST', body: JSON.stringify({ variant: 'chess', opponent: 'private', colour: 'white', conditions: ['circe', 'trou d4 e5'] }) })).json());
  assert(game.id, JSON.stringify(game));
  await pa.goto(base + '/game/' + game.id);
  await pb.goto(base + '/game/' + game.id);
  await pb.click('#join');
  for (const p of [pa, pb]) await p.waitForFunction(() => document.body.dataset.status === 'playing');
  // Moves entered on the board: a click on the piece, a click on its destination.
  const square = async (p, sq) => {
    const box = await p.locator('#board cg-board').boundingBox();
    const flipped = await p.evaluate(() => !!document.querySelector('#board.orientation-black'));
    const f = 'abcdefgh'.indexOf(sq[0]), r = Number(sq[1]) - 1;
    const col = flipped ? 7 - f : f, row = flipped ? r : 7 - r;
    return { x: box.x + (col + 0.5) * box.width / 8, y: box.y + (row + 0.5) * box.height / 8 };
  };
  const move = async (p, from, to, ply) => {
    for (const sq of [from, to]) { const c = await square(p, sq); await p.mouse.click(c.x, c.y); }
    for (const q of [pa, pb]) await q.waitForFunction(n => Number(document.body.dataset.ply) >= n, ply, { timeout: 10000 });
  };
  await move(pa, 'e2', 'e3', 1);
  await move(pb, 'b8', 'c6', 2);
  await move(pa, 'g1', 'f3', 3);
  // One ply back (on the phone): the position after 1...Nc6, White to move.
  await pb.click('#prev');
  await pb.waitForFunction(() => document.body.dataset.view === '2');
  assert(await pb.evaluate(() => document.documentElement.scrollWidth) <= 375, 'the game page at 375 px');
  await pb.click('#as-problem');
  await pb.waitForURL(/\/problems#/);
  await pb.waitForSelector('.pz-cond[data-condition=Hole]');
  const text = await pb.inputValue('#popeye');
  for (const w of ['Condition Circe', 'Condition Hole d4 e5', 'Pieces White', 'Pe3', 'Sg1', 'Sc6', 'Pe7']) assert(text.includes(w), `${w} in\n${text}`);
  assert(!/Sf3|Sb8|Pe2/.test(text), `the position before the last move:\n${text}`);
  assert(await pb.locator('#problem-board [data-square=c6] .pz-unit[data-side=black][data-piece=S]').count() === 1, 'the knight on the board');
  assert(await pb.locator('#problem-board [data-square=d4].hole').count() === 1, 'the hole drawn');
  assert(await pb.textContent('#link-note') === '', 'nothing left out: ' + await pb.textContent('#link-note'));
  await pb.screenshot({ path: `${shots}/problems-from-game-phone.png`, fullPage: true });
  // A variant the solver cannot express offers no such link (the server's descriptor says so).
  const other = await pa.evaluate(async () => {
    const vs = (await (await fetch('/api/variants')).json()).variants.filter(v => !v.conditions);
    const g = await (await fetch('/api/games', { method: 'POST', body: JSON.stringify({ variant: vs[0].name, opponent: 'private', colour: 'white' }) })).json();
    return g.id;
  });
  await pa.goto(base + '/game/' + other);
  await pa.waitForSelector('#analyse');
  assert(await pa.locator('#as-problem').count() === 0, 'no "Set up as problem" for a variant without conditions');
});

await test('a link with a condition Popeye input cannot write names it on the page', async () => {
  const page = await open(1100, '#' + new URLSearchParams([['fen', '4k3/8/8/8/8/8/8/4K3 b - - 0 1'], ['condition', 'circe'], ['condition', 'case obligatoire consequente e4']]));
  await page.waitForSelector('.pz-cond[data-condition=Circe]');
  const note = await page.textContent('#link-note');
  assert(note.includes('“case obligatoire consequente e4” is left out') && note.includes('Black was to move'), note);
  assert(await page.locator('.pz-cond').count() === 1, 'one condition set');
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
