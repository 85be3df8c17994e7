// The archive: finished games, filtered by variant, and the PGN import.
import { api, app, h, message } from '../dom';
import { analysisLink } from '../analysis/link';
import { archive, created, stateMsg, variantsInfo } from '../protocol';
import { variantTitle } from '../variants';

export async function archivePage() {
  const info = await api('/api/variants', variantsInfo);
  const filter = h('select', { id: 'filter' }, h('option', { value: '', text: 'all variants' }), ...info.variants.map(v => h('option', { value: v.name, text: variantTitle(v.name) })));
  const body = h('tbody');
  const listErr = h('div', { class: 'error' });
  const load = async () => {
    const r = await api('/api/archive?variant=' + encodeURIComponent(filter.value), archive);
    body.replaceChildren(...r.games.map(g => {
      // The game, from its last position, on the analysis board.
      const analyse = h('button', { class: 'analyse', text: 'Analyse', title: 'Open the game on the analysis board' });
      analyse.onclick = async e => {
        e.stopPropagation();
        try { const st = await api(`/api/games/${encodeURIComponent(g.id)}`, stateMsg); location.href = analysisLink(st, st.moves.length); } catch (x) { listErr.textContent = message(x); }
      };
      const tr = h('tr', { class: 'click', 'data-id': g.id }, h('td', { text: variantTitle(g.variant) }), h('td', { text: `${g.white} – ${g.black}` }), h('td', { text: g.result }), h('td', { text: g.reason }), h('td', { text: `${g.ply} plies` }), h('td', { text: new Date(g.updated_ms).toLocaleString() }), h('td', {}, analyse));
      tr.onclick = () => { location.href = '/game/' + g.id; };
      return tr;
    }));
    if (!r.games.length) body.append(h('tr', {}, h('td', { text: 'No finished game yet.' })));
  };
  filter.onchange = load;
  const text = h('textarea', { id: 'pgn-text', rows: '8', style: 'width:100%', placeholder: '[Variant "dynamo"]\n[FEN "..."]\n\n1. ...' });
  const imp = h('button', { class: 'primary', id: 'import', text: 'Import PGN' });
  const err = h('div', { class: 'error' });
  imp.onclick = async () => { try { const r = await api('/api/import', created, text.value); location.href = r.url; } catch (e) { err.textContent = message(e); } };
  app.append(h('div', { class: 'panel' }, h('h2', { text: 'Finished games' }), 'Show: ', filter, h('table', { class: 'list' }, body), listErr),
    h('div', { class: 'panel' }, h('h2', { text: 'Import a game (PGN)' }), h('p', { class: 'legend', text: 'Tags read: Variant, FEN, Conditions, Options, White, Black, Result. Turns in the variant\'s notation, UCI tokens or canonical form.' }), text, imp, err));
  load();
}
