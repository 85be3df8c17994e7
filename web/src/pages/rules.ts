// The rules pages with their diagrams (the texts are the server's: each variant's
// descriptor), and the conditions catalogue (the condition registry's texts).
import type { DrawShape } from 'chessgroundx/draw';
import type { Key } from 'chessgroundx/types';
import { api, app, h } from '../dom';
import { makeBoard } from '../position';
import { conditionsList } from '../protocol';
import { variants } from '../variants';

/** The rules pages: the index of the games, and a game's page with its diagrams; the
 *  texts are the server's (each variant's descriptor). */
export async function rulesPage(variant: string) {
  const list = await variants();
  const d = list.find(v => v.name === variant);
  if (!d) {
    app.append(h('div', { class: 'panel' }, h('h1', { text: 'Rules' }), ...list.map(v => h('p', {}, h('a', { href: '/rules/' + v.name, text: v.label }), ' — ' + v.summary))));
    return;
  }
  const box = h('div', { class: 'panel rules' }, h('h1', { text: d.label }), h('p', { class: 'legend', text: capital(d.summary) }));
  for (const sec of d.rules) {
    box.append(h('h2', { text: sec.heading }));
    for (const p of sec.text) box.append(h('p', { text: p }));
    for (const g of sec.diagrams) {
      const el = h('div', {});
      const wrap = h('div', { class: 'diagram' }, h('div', { class: 'small-board' }, el), h('div', { class: 'caption', text: g.caption }));
      box.append(wrap);
      requestAnimationFrame(() => {
        const shapes: DrawShape[] = g.arrows.map(a => ({ orig: a.slice(0, 2) as Key, dest: a.slice(2, 4) as Key, brush: 'green' }));
        for (const c of g.circles) shapes.push({ orig: c as Key, brush: 'red' });
        makeBoard(el, d.pieces, g.fen, { viewOnly: true, drawable: { enabled: false, visible: true, autoShapes: shapes } });
      });
    }
  }
  app.append(box);
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export async function conditionsPage() {
  const r = await api('/api/conditions', conditionsList);
  const body = h('tbody');
  // Every text comes from the server's condition registry: the client holds none.
  for (const c of r.conditions) {
    body.append(h('tr', {}, h('td', { class: 'name', text: c.name }), h('td', { class: 'popeye', text: c.popeye }), h('td', { class: 'summary', text: c.summary })));
  }
  app.append(h('div', { class: 'panel' }, h('h1', { text: 'Fairy conditions' }),
    h('p', { text: 'Chess games can be played under these conditions (chosen in the lobby, several at once where they compose). The name is what the lobby accepts; the keyword is Popeye\'s.' }),
    h('table', { class: 'list', id: 'conditions' }, h('thead', {}, h('tr', {}, h('th', { text: 'name' }), h('th', { text: 'Popeye keyword' }), h('th', { text: 'what it does' }))), body)));
}
