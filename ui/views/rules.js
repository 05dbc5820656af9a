// Rules: the security rules source with every expression coloured by its coverage.
//
// Coverage entries give 1-based line/column ranges counted in Unicode scalars, the end
// column one past the end. Expressions nest (`a && b` holds `a` and `b`), so the spans are
// built with a stack: the innermost span's colour is what shows.

import { el, button, showError, onEvent, rulesLoadedAt } from '../app.js';
import * as api from '../api.js';

const CATEGORIES = [
  ['never', 'never evaluated'],
  ['true', 'only true'],
  ['false', 'only false'],
  ['error', 'errors'],
  ['mixed', 'true and false'],
  ['value', 'evaluated (not a boolean)'],
];

/** The category of a coverage entry (the same rules as the server's coverage HTML). */
function category(e) {
  if (!e.evaluations) return 'never';
  if (e.errorCount > 0) return 'error';
  if (e.trueCount > 0 && e.falseCount > 0) return 'mixed';
  if (e.trueCount > 0) return 'true';
  if (e.falseCount > 0) return 'false';
  return 'value';
}

export function mount(root) {
  const summary = el('p', { id: 'coverage-summary', class: 'meta', 'aria-live': 'polite' }, 'Loading…');
  const loadedAt = el('p', { id: 'rules-loaded', class: 'meta' });
  const fileName = el('span', { class: 'mono', id: 'rules-file' });
  const legend = el('ul', { class: 'legend', id: 'coverage-legend', 'aria-label': 'Legend' });
  const body = el('div', { class: 'rules-body' });
  root.append(
    el('div', { class: 'toolbar' }, el('h1', {}, 'Rules'), fileName, el('span', { class: 'spacer' }),
      button('Refresh', load, { id: 'rules-refresh' })),
    summary, loadedAt, legend, body);

  let loading = false, again = false;
  async function load() {
    // One fetch at a time; a request made meanwhile triggers one more afterwards.
    if (loading) { again = true; return; }
    loading = true;
    try {
      render(await api.getRules());
    } catch (err) {
      showError(err);
      summary.textContent = 'Could not load the rules.';
    } finally {
      loading = false;
      if (again) { again = false; load(); }
    }
  }

  function render(r) {
    fileName.textContent = r?.file || '';
    // When the server installed the rules in force (coverage counts from then); the time the
    // page saw them, for an older server.
    const t = r?.loadedAt ? new Date(r.loadedAt) : rulesLoadedAt();
    const pad = (n) => String(n).padStart(2, '0');
    loadedAt.textContent = `Rules loaded at ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}; `
      + 'coverage counts since the rules were last loaded. (If the file on disk fails to compile, the previous rules stay in force.)';
    loadedAt.title = t.toString();
    if (!r || r.source == null) {
      summary.textContent = 'No rules file is loaded (firestore.rules in firebase.json).';
      legend.replaceChildren();
      body.replaceChildren();
      return;
    }
    const cov = r.coverage || { entries: [], expressions: 0, evaluatedExpressions: 0 };
    const entries = cov.entries || [];
    summary.textContent = `${cov.evaluatedExpressions ?? 0} of ${cov.expressions ?? entries.length} expressions evaluated`;
    const counts = {};
    for (const e of entries) counts[category(e)] = (counts[category(e)] || 0) + 1;
    legend.replaceChildren(...CATEGORIES.map(([k, label]) => el('li', {},
      el('span', { class: `swatch cov-${k}`, 'aria-hidden': 'true' }), `${label} (${counts[k] || 0})`)));
    const scrollTop = body.querySelector('.coverage')?.scrollTop ?? 0;
    const view = coverageSource(r.source, entries);
    body.replaceChildren(view);
    view.scrollTop = scrollTop;
  }

  // `request` events come in bursts: refetch at most about once a second.
  let timer = null;
  const soon = () => { if (!timer) timer = setTimeout(() => { timer = null; load(); }, 1000); };
  const offs = [onEvent('rules', load), onEvent('request', soon)];
  load();
  return { destroy() { offs.forEach((f) => f()); clearTimeout(timer); } };
}

/** The source as a line-number gutter plus a `<pre>` of nested coverage spans. */
function coverageSource(source, entries) {
  const cps = Array.from(source); // code points = Unicode scalars
  const lineStarts = [0];
  cps.forEach((c, i) => { if (c === '\n') lineStarts.push(i + 1); });
  const offset = (line, col) => Math.min(cps.length, Math.max(0, (lineStarts[line - 1] ?? cps.length) + col - 1));

  const spans = entries
    .map((e) => ({ e, start: offset(e.line, e.column), end: offset(e.endLine, e.endColumn) }))
    .filter((x) => x.end > x.start)
    .sort((a, b) => a.start - b.start || b.end - a.end || a.e.id - b.e.id);

  const code = el('pre', { class: 'code' });
  const stack = [{ node: code, end: cps.length }];
  let pos = 0;
  const top = () => stack[stack.length - 1];
  const text = (upto) => { if (upto > pos) { top().node.append(cps.slice(pos, upto).join('')); pos = upto; } };
  for (const sp of spans) {
    while (stack.length > 1 && top().end <= sp.start) { text(top().end); stack.pop(); }
    text(sp.start);
    const e = sp.e;
    const span = el('span', {
      class: `cov cov-${category(e)}`, dataset: { id: String(e.id) },
      title: `${e.text}\nevaluated ${e.evaluations}×: ${e.trueCount} true, ${e.falseCount} false, ${e.errorCount} errors`,
    });
    top().node.append(span);
    stack.push({ node: span, end: Math.min(sp.end, top().end) }); // clamp an improper overlap
  }
  while (stack.length > 1) { text(top().end); stack.pop(); }
  text(cps.length);

  const gutter = el('pre', { class: 'gutter', 'aria-hidden': 'true' }, lineStarts.map((_, i) => i + 1).join('\n'));
  return el('div', { class: 'coverage source-box', tabindex: '0', role: 'region', 'aria-label': 'Rules source with coverage' }, gutter, code);
}
