// Browser tests of the analysis board (`/analysis`): Debian's chromium driven by
// playwright-core against a running server. Usage: node tests/analysis.mjs http://127.0.0.1:PORT
// Prints one line per test and `N passed, N failed`; exit 1 on a failure.
import { chromium } from 'playwright-core';
import { assert, click, square } from './page-helpers.mjs';

const base = process.argv[2];
if (!base) { console.error('usage: node tests/analysis.mjs http://127.0.0.1:PORT'); process.exit(2); }
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
let passed = 0, failed = 0;
async function test(name, f) {
  const t0 = Date.now();
  try { await f(); passed++; console.log(`ok   ${name} (${Date.now() - t0} ms)`); }
  catch (e) { failed++; console.log(`FAIL ${name}: ${e.stack || e}`); }
}

async function open(query = '', width = 1100) {
  const ctx = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', e => console.log('  page error:', e.message));
  await page.goto(base + '/analysis' + query);
  await page.waitForSelector('#board cg-board');
  return page;
}
/** Enters a turn (its UCI token) part by part: squares clicked, choices and passes as buttons. */
async function enter(page, uci) {
  for (const part of uci.split(',')) {
    if (part === '0000') { await page.click(`#turn-parts button[data-part="${part}"]`); continue; }
    if (part.endsWith('--')) { await click(page, part.slice(0, 2)); await page.click('.exit-zone.exit-top'); continue; }
    await click(page, part.slice(0, 2));
    await click(page, part.slice(2, 4));
    const choice = page.locator(`#turn-parts button.choice[data-part="${part}"]`);
    if (await choice.count()) await choice.click();
  }
  const end = page.locator('#end-turn');
  if (await end.count() && await end.isVisible()) await end.click();
}
const ply = page => page.evaluate(() => Number(document.body.dataset.ply));
const legalTurns = (page, variant, fen) => page.evaluate(async ([variant, fen]) => {
  const m = await import('/assets/wasm/chimere_wasm.js');
  await m.default({ module_or_path: '/assets/wasm/chimere_wasm_bg.wasm' });
  return JSON.parse(new m.WasmGame(variant, '', fen).state()).legal;
}, [variant, fen]);

await test('a turn played on the board goes into the tree; keys go back and forward', async () => {
  const page = await open();
  await enter(page, 'e2e4');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert((await page.textContent('#tree')).includes('e4'), 'e4 in the tree');
  await page.keyboard.press('ArrowLeft');
  assert(await ply(page) === 0, 'back');
  await enter(page, 'd2d4');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert(await page.locator('#tree .variation').count() === 1, 'd4 is a variation');
  await page.click('#promote');
  assert((await page.locator('#tree .move').first().textContent()) === 'd4', 'd4 promoted to the main line');
  await page.click('#delete');
  assert(await ply(page) === 0 && (await page.locator('#tree .move').count()) === 1, 'd4 deleted');
});

await test('a pasted FEN opens; the engine finds the mate, follows the position and stops', async () => {
  const page = await open();
  await page.fill('#fen-input', 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2');
  await page.click('#open-fen');
  await page.waitForFunction(() => document.body.dataset.side === 'black');
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.querySelector('#lines .line .line-score')?.textContent === 'Black mates in 1', null, { timeout: 20000 });
  assert((await page.textContent('#lines .line')).includes('Qh4#'), 'the line in notation');
  assert(await page.evaluate(() => document.querySelector('#eval-bar').dataset.white) === '0', 'eval bar all black');
  // Follows the position: after a different move the lines are those of the new position.
  await enter(page, 'b8c6');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  await page.waitForFunction(() => Number(document.body.dataset.depth) >= 2, null, { timeout: 20000 });
  assert(!(await page.textContent('#lines')).includes('Qh4#'), 'new lines for the new position');
  const t0 = Date.now();
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.body.dataset.engine === 'stopped');
  const d = await page.evaluate(() => document.body.dataset.depth);
  await page.waitForFunction(() => document.body.dataset.stopMs !== undefined);
  const stopMs = Number(await page.evaluate(() => document.body.dataset.stopMs));
  await page.waitForTimeout(400);
  assert(await page.evaluate(() => document.body.dataset.depth) === d, 'no more lines after stop');
  console.log(`  the worker answered the stop in ${stopMs.toFixed(0)} ms (click to stopped shown: ${Date.now() - t0} ms)`);
  assert(stopMs < 1000, `stop answered in ${stopMs} ms`);
});

await test('a game opened at a ply (the game page\'s Analyse link)', async () => {
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const q = new URLSearchParams({ variant: 'chess', fen: start, moves: 'e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1', ply: '10', options: '{}' });
  const page = await open('#' + q);
  await page.waitForFunction(() => document.body.dataset.ply === '10');
  assert(await page.locator('#tree .move').count() === 11, 'the game as the main line');
  assert((await page.textContent('#tree .move.current')) === 'Be7', 'at ply 10');
  await enter(page, 'd2d4');
  await page.waitForFunction(() => document.body.dataset.ply === '11');
  assert(await page.locator('#tree .variation').count() === 1, 'a variation beside the game');
});

await test('a refused position is explained', async () => {
  const page = await open();
  await page.fill('#fen-input', '8/8/8/8/8/8/8/8 w - - 0 1');
  await page.click('#open-fen');
  await page.waitForFunction(() => document.querySelector('#error')?.textContent.length > 0);
  const msg = await page.textContent('#error');
  assert(/king/i.test(msg), msg);
});

await test('a PGN with variations and comments comes back the same', async () => {
  const page = await open();
  const pgn = '[Event "Casual"]\n[Site "https://lichess.org/abc"]\n[Variant "Standard"]\n\n1. e4 e5 (1... c5 2. Nf3 {Open Sicilian} (2. c3) 2... d6) 2. Nf3 Nc6 {main} 3. Bb5 $1 a6 *\n';
  await page.fill('#pgn', pgn);
  await page.click('#import-pgn');
  await page.waitForFunction(() => document.querySelectorAll('#tree .move').length === 10);
  await page.click('#export-pgn');
  const out = await page.inputValue('#pgn');
  assert(out.includes('1. e4 e5 (1... c5 2. Nf3 {Open Sicilian} (2. c3) 2... d6) 2. Nf3 Nc6 {main} 3. Bb5 a6 *'), out);
  await page.fill('#pgn', out);
  await page.click('#import-pgn');
  await page.click('#export-pgn');
  assert(await page.inputValue('#pgn') === out, 'exported again unchanged');
  // The share link reopens the tree at the same ply.
  await page.click('#tree .move[data-ply="3"]');
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  const again = await browser.newPage();
  await again.goto(link);
  await again.waitForSelector('#board cg-board');
  await again.waitForFunction(() => document.body.dataset.ply === '3');
  await again.click('#export-pgn');
  assert(await again.inputValue('#pgn') === out, 'the shared tree');
});

await test('Dynamo: a two-part turn on a pasted position', async () => {
  const page = await open('#variant=dynamo');
  await page.waitForFunction(() => document.body.dataset.variant === 'dynamo');
  const fen = await page.evaluate(() => document.body.dataset.fen);
  const legal = await legalTurns(page, 'dynamo', fen);
  const two = legal.find(t => t.uci.split(',').length === 2 && t.uci.split(',').every(p => /^[a-h][1-8][a-h][1-8]$/.test(p)));
  assert(two, 'a two-part turn');
  await enter(page, two.uci);
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert((await page.textContent('#tree')).includes(two.notation), `${two.notation} in the tree`);
});

await test('Checkered: a capture makes a checkered piece', async () => {
  const page = await open('#variant=checkered&fen=' + encodeURIComponent('rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w 0 ahah1111111111111111 - - 1'));
  await page.waitForFunction(() => document.body.dataset.variant === 'checkered');
  const legal = await legalTurns(page, 'checkered', await page.evaluate(() => document.body.dataset.fen));
  const capture = legal.find(t => t.uci.startsWith('e4d5'));
  assert(capture, 'exd5 legal: ' + legal.map(t => t.uci).join(' '));
  await enter(page, capture.uci);
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert(/ d5:c/.test(' ' + capture.canonical) || capture.canonical.includes(':c'), capture.canonical);
  // chessground draws in the next animation frame: wait for it, then count.
  const one = () => document.querySelectorAll('#board piece.pp-piece:not(.fading)').length === 1;
  await page.waitForFunction(one, null, { timeout: 3000 }).catch(() => {});
  assert(await page.locator('#board piece.pp-piece:not(.fading)').count() === 1, 'a checkered pawn on the board');
});

/** Scrolls the board into view; two frames later the board has seen the scroll (it
 * measures itself again after a scroll event, which comes with the next frame). */
async function showBoard(page) {
  await page.evaluate(() => new Promise(r => {
    document.querySelector('#board').scrollIntoView({ block: 'nearest' });
    requestAnimationFrame(() => requestAnimationFrame(r));
  }));
}
/** Opens the editor (on the position shown) and empties the board. */
async function setUp(page) {
  await page.click('#setup-open');
  await page.waitForFunction(() => document.body.dataset.setup === 'on');
  await page.click('#setup-clear');
  await page.waitForFunction(() => document.body.dataset.setupUnits === '0');
}
/** Places units (`wk e1`, `cn d4`…) from the palette. */
async function place(page, ...units) {
  for (const u of units) {
    const [cl, sq] = u.split(' ');
    await page.click(`#palette button[data-colour="${cl[0]}"][data-letter="${cl[1]}"]`);
    // The palette is below the board: bring the board back into view to touch it.
    await showBoard(page);
    await click(page, sq);
  }
}
const setupFen = page => page.evaluate(() => document.body.dataset.setupFen);
/** Drags the unit on `from` with the mouse to `to` (a square, or a point off the board). */
async function drag(page, from, to) {
  await page.click('#palette button[data-tool="move"]');
  await showBoard(page);
  const a = await square(page, from);
  const b = typeof to === 'string' ? await square(page, to) : to(await page.locator('#board cg-board').boundingBox());
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 6, a.y + 6, { steps: 2 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

await test('Dynamo set up by hand (castling, the last turn), Done, then a push on it; the share link keeps it', async () => {
  const page = await open('#variant=dynamo');
  await page.waitForFunction(() => document.body.dataset.variant === 'dynamo');
  await setUp(page);
  await place(page, 'wk e1', 'bk e8', 'bn a5');
  // The rook dragged from the palette onto a1.
  const rook = page.locator('#palette button[data-colour="w"][data-letter="r"]');
  await rook.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
  const from = await rook.boundingBox();
  const a1 = await square(page, 'a1');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(a1.x, a1.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(() => document.body.dataset.setupUnits === '4');
  // State fields: White may castle queen-side; Black's last turn brought the knight from b7.
  await page.check('#setup-fields input[data-field="castle_wq"]');
  await page.selectOption('#setup-fields select[data-field="last_from"]', 'b7');
  await page.selectOption('#setup-fields select[data-field="last_to"]', 'a5');
  await page.waitForFunction(() => document.body.dataset.setupFen.includes('bna5/bnb7'));
  const fen = await setupFen(page);
  assert(fen === '4k3/8/8/n7/8/8/8/R3K3 w 0 aiii bna5/bnb7', fen);
  assert((await page.textContent('#setup-error')) === '', 'no refusal');
  await page.click('#setup-done');
  await page.waitForFunction(f => document.body.dataset.setup === 'off' && document.body.dataset.fen === f, fen);
  // The engine analyses the position set up.
  await page.click('#engine-toggle');
  await page.waitForFunction(() => Number(document.body.dataset.depth) >= 2 && document.querySelectorAll('#lines .line').length > 0, null, { timeout: 20000 });
  await page.click('#engine-toggle');
  await page.waitForFunction(() => document.body.dataset.engine === 'stopped');
  // A push: the rook drives the black knight up the a-file (then follows or passes).
  const legal = await legalTurns(page, 'dynamo', fen);
  const push = legal.find(t => /^a5a[678]/.test(t.uci) && t.uci.includes(','));
  assert(push, 'a push of the knight: ' + legal.map(t => t.uci).join(' '));
  assert(legal.some(t => t.uci.startsWith('e1c1') || t.uci.startsWith('e1a1')), 'castling from the field');
  await enter(page, push.uci);
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert((await page.textContent('#tree')).includes(push.notation), `${push.notation} in the tree`);
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  const again = await browser.newPage();
  await again.goto(link);
  await again.waitForFunction(() => document.body.dataset.ply === '1' && document.body.dataset.variant === 'dynamo');
  await again.keyboard.press('Home');
  await again.waitForFunction(f => document.body.dataset.fen === f, fen);
  await again.close();
});

await test('Checkered set up by hand (two-step flags, stage), Done, then a switch and a checkered move', async () => {
  const page = await open('#variant=checkered');
  await page.waitForFunction(() => document.body.dataset.variant === 'checkered');
  await setUp(page);
  await place(page, 'wk e1', 'bk e8', 'wp e2', 'cn c2');
  await drag(page, 'c2', 'd4');
  await page.waitForFunction(() => document.body.dataset.setupFen.startsWith('4k3/8/8/8/3o4/8/4P3/4K3 '));
  assert(await page.locator('#palette button[data-colour="c"]').count() === 5, 'five checkered units in the palette');
  await page.selectOption('#setup-fields select[data-field="stage"]', '1');
  // The white e-pawn may no longer step two squares: only file a keeps its flag.
  await page.check('#setup-fields [data-field="steps_w"] input[data-file="a"]');
  await page.waitForFunction(() => / iiii1000000000000000 - - 1$/.test(document.body.dataset.setupFen));
  const fen = await setupFen(page);
  await page.click('#setup-done');
  await page.waitForFunction(f => document.body.dataset.setup === 'off' && document.body.dataset.fen === f, fen);
  const legal = await legalTurns(page, 'checkered', fen);
  assert(legal.some(t => t.uci === 'e2e3') && !legal.some(t => t.uci === 'e2e4'), 'the flag holds: ' + legal.map(t => t.uci).join(' '));
  const sw = legal.find(t => t.uci.startsWith('0000,d4'));
  assert(sw, 'a switch then a checkered knight move');
  await enter(page, sw.uci);
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert((await page.evaluate(() => document.body.dataset.fen)).endsWith(' 2w'), 'stage 2, White switched');
  await page.keyboard.press('ArrowLeft');
  await enter(page, 'd4f5');
  await page.waitForFunction(() => document.body.dataset.ply === '1');
  assert(await page.locator('#tree .variation').count() === 1, 'a checkered move as a variation');
});

await test('a refused set-up says why, in words; Done keeps the editor open', async () => {
  const page = await open();
  await page.click('#setup-open');
  await page.waitForFunction(() => document.body.dataset.setup === 'on');
  await place(page, 'wk e4');
  await page.waitForFunction(() => document.querySelector('#setup-error')?.textContent.includes('two white kings (e1, e4)'));
  await page.click('#setup-done');
  assert(await page.evaluate(() => document.body.dataset.setup) === 'on', 'still editing');
  // Dragged off the board, the second king goes; the eraser takes the e-pawn.
  await drag(page, 'e4', box => ({ x: box.x + box.width + 60, y: box.y + box.height / 2 }));
  await page.waitForFunction(() => document.body.dataset.setupUnits === '32' && document.querySelector('#setup-error')?.textContent === '');
  await page.click('#palette button[data-tool="remove"]');
  await showBoard(page);
  await click(page, 'e2');
  await page.selectOption('#setup-fields select[data-field="ep"]', 'e3');
  await page.waitForFunction(() => document.querySelector('#setup-error')?.textContent.startsWith('en passant on e3'));
  console.log(`  ${await page.textContent('#setup-error')}`);
  await page.click('#setup-cancel');
  await page.waitForFunction(() => document.body.dataset.setup === 'off');
  assert((await page.evaluate(() => document.body.dataset.fen)).startsWith('rnbqkbnr/pppppppp'), 'the position before');
});

await test('the editor at 375 px: no horizontal scrolling', async () => {
  const page = await open('#variant=checkered', 375);
  await page.waitForFunction(() => document.body.dataset.variant === 'checkered');
  await page.click('#setup-open');
  await page.waitForFunction(() => document.body.dataset.setup === 'on');
  await place(page, 'cq d5');
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(w <= 375, `page is ${w} px wide`);
  await page.screenshot({ path: 'test-artifacts/analysis-setup-375.png', fullPage: true }).catch(() => {});
});

await test('375 px wide: no horizontal scrolling', async () => {
  const page = await open('', 375);
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  assert(w <= 375, `page is ${w} px wide`);
});

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
