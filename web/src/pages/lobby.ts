// The lobby: your name, the new-game form, your games, the open seeks and the games being played.
import { api, app, h, message } from '../dom';
import { conditionsList, created, lobby, me, variantsInfo } from '../protocol';
import type { GameSummary, VariantDescriptor } from '../protocol';
import { variantTitle } from '../variants';

type CreateReq = {
  variant: string;
  colour: string;
  opponent: string;
  conditions?: string[];
  minutes?: number;
  increment?: number;
  level?: number;
  /** The variant's options, by the keys its descriptor gives. */
  [option: string]: string | number | boolean | string[] | undefined;
};

/** The inputs of a variant's options, made from its descriptor. */
function optionInputs(d: VariantDescriptor): { el: HTMLElement; read: (body: CreateReq) => void } {
  const box = h('div', { class: 'options', 'data-variant': d.name });
  const readers: ((body: CreateReq) => void)[] = [];
  for (const o of d.options) {
    const id = `opt-${d.name}-${o.key}`;
    if (o.type === 'bool') {
      const input = h('input', { type: 'checkbox', id, 'data-option': o.key });
      input.checked = o.default;
      box.append(h('label', {}, input, ' ' + o.label));
      readers.push(body => { body[o.key] = input.checked; });
    } else {
      const select = h('select', { id, 'data-option': o.key });
      for (const c of o.choices) {
        const [value, label] = c;
        select.append(h('option', { value: String(value), text: String(label) }));
      }
      select.value = String(o.default);
      box.append(h('label', {}, o.label + ': ', select));
      readers.push(body => { body[o.key] = Number(select.value); });
    }
  }
  let condInput: HTMLInputElement | null = null;
  if (d.conditions) {
    condInput = h('input', { id: `conditions-${d.name}`, class: 'conditions', list: 'condlist', placeholder: 'e.g. circe, einstein (comma-separated)' });
    box.append(h('label', {}, 'Fairy conditions: ', condInput), h('div', { class: 'legend' }, 'See the ', h('a', { href: '/conditions', text: 'conditions' }), '.'));
  }
  return {
    el: box,
    read: body => {
      for (const r of readers) r(body);
      if (condInput) body.conditions = condInput.value.split(',').map(s => s.trim()).filter(Boolean);
    },
  };
}

export async function lobbyPage() {
  const [who, info, conds] = await Promise.all([api('/api/me', me), api('/api/variants', variantsInfo), api('/api/conditions', conditionsList)]);
  const err = h('div', { class: 'error' });
  const nameInput = h('input', { id: 'name', placeholder: 'Anonymous', maxlength: '24', value: who.name || '' });
  const nameBtn = h('button', { text: 'Save name' });
  nameBtn.onclick = async () => {
    try { await api('/api/name', me, { name: nameInput.value }); err.textContent = ''; } catch (e) { err.textContent = message(e); }
  };

  const variant = h('select', { id: 'variant' }, ...info.variants.map(v => h('option', { value: v.name, text: variantTitle(v.name, v) })));
  const options = new Map(info.variants.map(v => [v.name, optionInputs(v)]));
  const datalist = h('datalist', { id: 'condlist' }, ...conds.conditions.map(c => h('option', { value: c.name })));
  const summary = h('div', { class: 'legend', id: 'variant-summary' });
  const minutes = h('input', { id: 'minutes', type: 'number', min: '0', max: '180', step: '0.5', value: '5', style: 'width:5em' });
  const increment = h('input', { id: 'increment', type: 'number', min: '0', max: '180', value: '3', style: 'width:5em' });
  const timed = h('input', { type: 'checkbox', id: 'timed', checked: '' });
  const colour = h('select', { id: 'colour' }, h('option', { value: 'random', text: 'random' }), h('option', { value: 'white', text: 'white' }), h('option', { value: 'black', text: 'black' }));
  const opponent = h('select', { id: 'opponent' }, h('option', { value: 'seek', text: 'open seek (anyone may accept)' }), h('option', { value: 'private', text: 'private link for a friend' }), h('option', { value: 'computer', text: 'the computer' }));
  const level = h('select', { id: 'level', title: 'Strength in Elo, measured in games against Stockfish at 10 s + 0.1 s a move' },
    ...info.levels.map(l => h('option', { value: String(l.level), text: `level ${l.level}${l.strength ? ` (${l.strength} Elo)` : ''}` })));
  const create = h('button', { class: 'primary', id: 'create', text: 'Create game' });
  const sync = () => {
    for (const [name, o] of options) o.el.style.display = variant.value === name ? '' : 'none';
    const d = info.variants.find(v => v.name === variant.value);
    summary.textContent = d?.summary ? `${variantTitle(d.name, d)}: ${d.summary}` : '';
    level.style.display = opponent.value === 'computer' ? '' : 'none';
  };
  variant.onchange = sync; opponent.onchange = sync; sync();
  create.onclick = async () => {
    const body: CreateReq = { variant: variant.value, colour: colour.value, opponent: opponent.value };
    options.get(variant.value)?.read(body);
    if (timed.checked) { body.minutes = Number(minutes.value); body.increment = Number(increment.value); }
    if (opponent.value === 'computer') body.level = Number(level.value);
    try { const r = await api('/api/games', created, body); location.href = r.url; } catch (e) { err.textContent = message(e); }
  };
  const form = h('div', { class: 'panel' }, h('h2', { text: 'New game' }),
    h('label', {}, 'Variant: ', variant), summary, ...[...options.values()].map(o => o.el), datalist,
    h('label', {}, timed, ' Clock: ', minutes, ' minutes + ', increment, ' seconds'),
    h('label', {}, 'Your colour: ', colour), h('label', {}, 'Opponent: ', opponent, ' ', level), create, err);
  const seeks = h('tbody');
  const live = h('tbody');
  const mine = h('tbody');
  const minePanel = h('div', { class: 'panel hidden', id: 'mine-panel' }, h('h2', { text: 'Your games' }), h('table', { class: 'list', id: 'mine' }, mine));
  const lists = h('div', {}, minePanel,
    h('div', { class: 'panel' }, h('h2', { text: 'Open seeks' }), h('table', { class: 'list', id: 'seeks' }, seeks)),
    h('div', { class: 'panel' }, h('h2', { text: 'Games being played' }), h('table', { class: 'list', id: 'live' }, live)));
  app.append(h('div', { class: 'panel' }, 'Your name: ', nameInput, nameBtn), h('div', { class: 'row' }, form, lists));
  const row = (g: GameSummary, what: string) => {
    const tr = h('tr', { class: 'click', 'data-id': g.id }, h('td', { text: variantTitle(g.variant) }), h('td', { text: g.describe }), h('td', { text: `${g.white} – ${g.black}` }), h('td', { text: g.time || '∞' }), h('td', { text: what }));
    tr.onclick = () => { location.href = '/game/' + g.id; };
    return tr;
  };
  const refresh = async () => {
    try {
      const l = await api('/api/lobby', lobby);
      seeks.replaceChildren(...l.seeks.map(g => row(g, 'play ' + g.open)));
      live.replaceChildren(...l.live.map(g => row(g, 'watch')));
      mine.replaceChildren(...l.mine.map(g => row(g, g.status === 'waiting' ? 'waiting for an opponent' : 'resume')));
      minePanel.classList.toggle('hidden', l.mine.length === 0);
      if (!l.seeks.length) seeks.append(h('tr', {}, h('td', { text: 'No open seek: create one.' })));
      if (!l.live.length) live.append(h('tr', {}, h('td', { text: 'No game in play.' })));
    } catch { /* retried */ }
  };
  refresh();
  setInterval(refresh, 3000);
}
