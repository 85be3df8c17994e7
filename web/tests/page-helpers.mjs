// What the browser scripts share: assertions, the board's squares on the page, clicks on
// them, the API as the page's own fetch, and waiting for a ply.

export function assert(c, msg) { if (!c) throw new Error(msg); }

/** Centre of a square on the page's board (White at the bottom unless it is flipped). */
export async function square(page, sq) {
  const box = await page.locator('#board cg-board').boundingBox();
  const flipped = await page.evaluate(() => !!document.querySelector('#board.orientation-black'));
  const f = 'abcdefgh'.indexOf(sq[0]), r = Number(sq[1]) - 1;
  const col = flipped ? 7 - f : f, row = flipped ? r : 7 - r;
  return { x: box.x + (col + 0.5) * box.width / 8, y: box.y + (row + 0.5) * box.height / 8 };
}

export async function click(page, sq) { const p = await square(page, sq); await page.mouse.click(p.x, p.y); }

/** The page's own request to the server's API (its cookies, its origin); the JSON answer. */
export async function api(page, path, body) {
  return page.evaluate(async ([path, body]) => {
    const r = await fetch(path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
    return r.json();
  }, [path, body]);
}

/** Waits until the page shows at least `n` plies. */
export async function waitPly(page, n, timeout = 10000) {
  await page.waitForFunction(n => Number(document.body.dataset.ply) >= n, n, { timeout });
}
