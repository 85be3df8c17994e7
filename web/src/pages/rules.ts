// The rules pages (texts.ts) with their diagrams, and the conditions catalogue.
import type { DrawShape } from 'chessgroundx/draw';
import type { Key } from 'chessgroundx/types';
import { api, app, h } from '../dom';
import { makeBoard } from '../position';
import { conditionsList } from '../protocol';
import { RULES } from '../texts';
import { descriptor } from '../variants';

export async function rulesPage(variant: string) {
  const r = RULES[variant];
  if (!variant || !r) {
    app.append(h('div', { class: 'panel' }, h('h1', { text: 'Rules' }), ...Object.entries(RULES).map(([v, x]) => h('p', {}, h('a', { href: '/rules/' + v, text: x.title }), ' — ' + x.summary))));
    return;
  }
  const pieces = (await descriptor(variant))?.pieces ?? [];
  const box = h('div', { class: 'panel rules' }, h('h1', { text: r.title }));
  for (const sec of r.sections) {
    box.append(h('h2', { text: sec.heading }));
    for (const p of sec.text) box.append(h('p', { text: p }));
    for (const d of sec.diagrams || []) {
      const el = h('div', {});
      const wrap = h('div', { class: 'diagram' }, h('div', { class: 'small-board' }, el), h('div', { class: 'caption', text: d.caption }));
      box.append(wrap);
      requestAnimationFrame(() => {
        const shapes: DrawShape[] = (d.arrows || []).map(a => ({ orig: a.slice(0, 2) as Key, dest: a.slice(2, 4) as Key, brush: 'green' }));
        for (const c of d.circles || []) shapes.push({ orig: c as Key, brush: 'red' });
        makeBoard(el, pieces, d.fen, { viewOnly: true, drawable: { enabled: false, visible: true, autoShapes: shapes } });
      });
    }
  }
  app.append(box);
}

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
