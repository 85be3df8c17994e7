// The problems' collection (`/collection`): the stored problems filtered by condition,
// stipulation, piece and words (the server's /api/problems), a whole Popeye file imported
// with a report per problem, and the listed problems exported as Popeye input.
import { api, h, message } from '../dom';
import { conditionsList } from '../protocol';
import { importReport, problemList, statusText } from '../problems/api';
import type { ImportReport } from '../problems/api';
import type { Catalogue } from '../problems/wasm-types';

const app = document.getElementById('app')!;

export async function collectionPage(cat: Catalogue) {
  const conds = await api('/api/conditions', conditionsList).then(r => r.conditions).catch(() => []);
  const el = {
    condition: h('select', { id: 'filter-condition', 'aria-label': 'Condition' }),
    stipulation: h('input', { id: 'filter-stipulation', 'aria-label': 'Stipulation', placeholder: 'Stipulation (h#, #2…)' }),
    piece: h('select', { id: 'filter-piece', 'aria-label': 'Piece' }),
    text: h('input', { id: 'filter-text', 'aria-label': 'Words', placeholder: 'Author, source, words…' }),
    list: h('div', { id: 'problem-list', class: 'pz-list' }),
    count: h('div', { id: 'problem-count', class: 'hint' }),
    export: h('a', { id: 'export', href: '#', text: 'Export these as Popeye input', download: 'problems.txt' }),
    importText: h('textarea', { id: 'import-text', rows: '6', spellcheck: 'false', 'aria-label': 'Popeye file to import', placeholder: 'Paste a Popeye file (BeginProblem … NextProblem … EndProblem)' }),
    importFile: h('input', { id: 'import-file', type: 'file', accept: '.txt,.inp,text/plain', 'aria-label': 'Popeye file' }),
    importBtn: h('button', { id: 'import', text: 'Import into the collection' }),
    report: h('div', { id: 'import-report', class: 'pz-report', role: 'status' }),
  };
  el.condition.append(h('option', { value: '', text: 'Any condition' }));
  // By Popeye's keyword (what a composer looks for), the registry's name beside it.
  const seen = new Set<string>();
  const byKeyword = [...conds].sort((a, b) => a.popeye.localeCompare(b.popeye));
  for (const c of byKeyword) {
    const kw = c.popeye.split(/\s+/)[0];
    if (kw.startsWith('(') || seen.has(kw)) continue;
    seen.add(kw);
    el.condition.append(h('option', { value: kw, text: `${kw} (${c.name})`, title: c.summary }));
  }
  el.piece.append(h('option', { value: '', text: 'Any piece' }));
  for (const p of cat.pieces) el.piece.append(h('option', { value: p.letters, text: `${p.name} (${p.letters})` }));

  const query = () => {
    const q = new URLSearchParams();
    if (el.condition.value) q.set('condition', el.condition.value);
    if (el.stipulation.value.trim()) q.set('stipulation', el.stipulation.value.trim());
    if (el.piece.value) q.set('piece', el.piece.value);
    if (el.text.value.trim()) q.set('text', el.text.value.trim());
    return q;
  };
  let seq = 0;
  const load = async () => {
    const mine = ++seq;
    const q = query();
    try {
      const r = await api(`/api/problems?${q}`, problemList);
      if (mine !== seq) return;
      el.count.textContent = `${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`;
      el.list.replaceChildren(...r.problems.map(p => h('a', { class: 'pz-item', href: `/problems/${p.id}`, 'data-id': p.id },
        h('strong', { text: p.stipulation }), ' ',
        h('span', { text: p.conditions || 'orthodox' }),
        h('div', { class: 'hint', text: [p.author, p.origin, p.date].filter(x => x).join(' · ') }),
        h('div', { class: 'hint', text: statusText(p.status, p.solve_ms) }))));
      el.export.setAttribute('href', `/api/problems/export?ids=${r.problems.map(p => p.id).join(',')}`);
    } catch (e) {
      el.count.textContent = `The collection could not be read: ${message(e)}`;
    }
  };
  for (const c of [el.condition, el.piece]) c.onchange = () => void load();
  for (const c of [el.stipulation, el.text]) c.oninput = () => void load();
  el.importFile.onchange = async () => {
    const f = el.importFile.files?.[0];
    if (f) el.importText.value = await f.text();
  };
  el.importBtn.onclick = async () => {
    el.report.textContent = 'Importing…';
    try {
      const r = await api('/api/problems', importReport, el.importText.value);
      showReport(el.report, r);
      await load();
    } catch (e) {
      el.report.replaceChildren(h('p', { class: 'error', text: `Nothing was imported: ${message(e)}` }));
    }
  };
  app.replaceChildren(h('div', { class: 'problems' },
    h('h1', { text: 'Problems: the collection' }),
    h('p', {}, h('a', { href: '/problems', text: 'Compose a problem' })),
    h('div', { class: 'pz-filters' }, el.condition, el.stipulation, el.piece, el.text),
    h('div', { class: 'row' }, el.count, el.export),
    el.list,
    h('h2', { text: 'Import a Popeye file' }),
    el.importText, h('div', { class: 'row' }, el.importFile, el.importBtn), el.report));
  await load();
}

export function showReport(box: HTMLElement, r: ImportReport) {
  const refused = r.report.filter(x => x.error).length;
  box.replaceChildren(h('p', { text: `${r.saved} saved, ${refused} refused. The server solves the saved problems in the background.` }),
    h('ul', {}, ...r.report.map(x => x.error
      ? h('li', { class: 'error', 'data-index': String(x.index), text: `Problem ${x.index} (line ${x.line}): ${x.error}` })
      : h('li', { 'data-index': String(x.index) }, `Problem ${x.index} (line ${x.line}): saved — `, h('a', { href: `/problems/${x.id}`, text: `${x.stipulation} /problems/${x.id}` })))));
}
