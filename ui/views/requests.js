// Requests: the security-rules evaluations of client requests, live, with filters and a
// detail panel that explains a decision against the rules source.

import { el, button, labelled, showError, showInfo, onEvent, timeCell, sourceLines, scrollWithin } from '../app.js';
import * as api from '../api.js';

const MAX_ROWS = 1000;   // rows rendered at once (newest kept)
const MAX_KEEP = 20000;  // entries kept in memory

const METHODS = ['get', 'list', 'create', 'update', 'delete'];

export function mount(root) {
  const s = { entries: [], ids: new Set(), selectedId: null, rules: null };

  const method = el('select', { id: 'filter-method' }, el('option', { value: '' }, 'All'), METHODS.map((m) => el('option', { value: m }, m)));
  const path = el('input', { id: 'filter-path', type: 'search', placeholder: 'e.g. /users/', spellcheck: 'false' });
  const verdict = el('select', { id: 'filter-verdict' },
    el('option', { value: '' }, 'All'), el('option', { value: 'allow' }, 'allow'), el('option', { value: 'deny' }, 'deny'));
  const user = el('input', { id: 'filter-user', type: 'search', placeholder: 'uid', spellcheck: 'false' });
  for (const c of [method, verdict]) c.addEventListener('change', renderRows);
  for (const c of [path, user]) c.addEventListener('input', renderRows);

  const count = el('p', { class: 'meta', id: 'request-count', 'aria-live': 'polite' });
  const tbody = el('tbody', { id: 'request-rows' });
  const tableBox = el('div', { class: 'table-box' },
    el('table', { class: 'grid', id: 'requests-table' },
      el('caption', { class: 'visually-hidden' }, 'Security rules evaluations, newest first'),
      el('thead', {}, el('tr', {}, ['#', 'Time', 'Method', 'Path', 'Auth', 'Verdict'].map((h) => el('th', { scope: 'col' }, h)))),
      tbody));
  const detail = el('section', { id: 'request-detail', class: 'detail', 'aria-label': 'Request detail', hidden: true });

  root.append(
    el('div', { class: 'toolbar' }, el('h1', {}, 'Requests'), el('span', { class: 'spacer' }),
      button('Clear', clear, { id: 'clear-requests', class: 'danger' })),
    el('form', { class: 'filters', 'aria-label': 'Filters', onsubmit: (e) => e.preventDefault() },
      labelled('Method', method), labelled('Path contains', path), labelled('Verdict', verdict), labelled('User', user)),
    el('div', { class: 'split' }, el('div', { class: 'split-main' }, count, tableBox), detail));

  // --------------------------------------------------------------------------------------

  function matches(e) {
    if (method.value && e.method !== method.value) return false;
    if (verdict.value && e.verdict !== verdict.value) return false;
    const p = path.value.trim().toLowerCase();
    if (p && !String(e.path || '').toLowerCase().includes(p)) return false;
    const u = user.value.trim().toLowerCase();
    if (u && !`${e.uid || ''} ${e.auth || ''}`.toLowerCase().includes(u)) return false;
    return true;
  }

  function row(e) {
    const open = () => select(e.id);
    const tr = el('tr', {
      'data-testid': 'request-row', tabindex: '0', class: 'clickable' + (e.id === s.selectedId ? ' selected' : ''),
      dataset: { verdict: e.verdict, id: String(e.id), method: e.method },
      onclick: open,
      onkeydown: (ev) => { if ((ev.key === 'Enter' || ev.key === ' ') && ev.target === tr) { ev.preventDefault(); open(); } },
    },
      el('td', {}, button(String(e.id), (ev) => { ev.stopPropagation(); open(); }, { class: 'linkish', 'aria-label': `Details of request ${e.id}`, tabindex: '-1' })),
      el('td', {}, timeCell(e.time)),
      el('td', {}, el('span', { class: 'method' }, e.method)),
      el('td', { class: 'mono path' }, pathWithBreaks(e.path)),
      el('td', {}, e.auth || (e.uid ? `uid ${e.uid}` : 'unauthenticated')),
      el('td', {}, el('span', { class: `badge ${e.verdict}` }, e.verdict)));
    return tr;
  }

  function updateCount(shown, matching) {
    const total = s.entries.length;
    count.textContent = total === 0 ? 'No requests yet. Requests from clients evaluated by the security rules appear here live.'
      : `${matching} of ${total} request${total === 1 ? '' : 's'} match${shown < matching ? ` (showing the newest ${shown})` : ''}`;
  }

  let matching = 0;
  function renderRows() {
    const list = s.entries.filter(matches);
    matching = list.length;
    const shown = list.slice(-MAX_ROWS).reverse(); // newest first
    tbody.replaceChildren(...shown.map(row));
    updateCount(shown.length, matching);
  }

  function add(e, live) {
    if (s.ids.has(e.id)) return;
    s.ids.add(e.id);
    s.entries.push(e);
    if (s.entries.length > MAX_KEEP) s.ids.delete(s.entries.shift().id);
    if (!live) return;
    if (!matches(e)) { updateCount(tbody.rows.length, matching); return; }
    tbody.prepend(row(e)); // newest first: live rows come in at the top
    matching++;
    while (tbody.rows.length > MAX_ROWS) tbody.rows[tbody.rows.length - 1].remove();
    updateCount(tbody.rows.length, matching);
  }

  async function load() {
    const list = await api.getRequests();
    for (const e of list) add(e, false);
    s.entries.sort((a, b) => a.id - b.id);
    renderRows();
  }

  async function loadRules() {
    try {
      s.rules = await api.getRules();
    } catch (err) {
      s.rules = null;
      showError(err);
    }
    if (s.selectedId != null) renderDetail(false);
  }

  async function clear() {
    if (!confirm('Clear the request log? All recorded requests are removed.')) return;
    await api.clearRequests();
    s.entries = []; s.ids.clear(); s.selectedId = null;
    detail.hidden = true;
    renderRows();
    showInfo('Request log cleared');
  }

  // --------------------------------------------------------------------------------------
  // Detail panel

  function select(id) {
    s.selectedId = id;
    for (const tr of tbody.rows) tr.classList.toggle('selected', tr.dataset.id === String(id));
    renderDetail(true);
  }

  function renderDetail(focus) {
    const e = s.entries.find((x) => x.id === s.selectedId);
    if (!e) { detail.hidden = true; return; }
    const heading = el('h2', { tabindex: '-1', id: 'request-detail-title' }, `Request #${e.id}: ${e.method} ${e.path}`);
    const facts = el('dl', { class: 'facts' });
    const fact = (k, v, cls) => { if (v != null && v !== '') facts.append(el('dt', {}, k), el('dd', { class: cls || null }, v)); };
    fact('Time', e.time);
    fact('Auth', e.auth || (e.uid ? `uid ${e.uid}` : 'unauthenticated'));
    fact('Verdict', el('span', { class: `badge ${e.verdict}`, 'data-testid': 'detail-verdict' }, e.verdict));
    if (e.grantedBy) fact('Granted by', `line ${e.grantedBy.line}:${e.grantedBy.column} in match ${e.grantedBy.match}`, 'mono');
    fact('Message', e.message);
    fact('Way', e.way);
    fact('Failure', e.failure, 'failure');

    const statements = e.statements || [];
    const stList = statements.length ? el('ol', { class: 'statements', 'data-testid': 'statements' },
      statements.map((st) => el('li', { class: resultClass(st.result), 'data-testid': 'statement' },
        el('div', { class: 'st-head' },
          el('span', { class: 'mono' }, `allow ${(st.methods || []).join(', ')}`),
          el('span', { class: 'meta' }, ` at line ${st.line}:${st.column}`),
          ' → ', el('span', { class: 'st-result mono' }, st.result)),
        el('div', { class: 'mono st-match' }, `match ${st.match}`),
        (st.culprits || []).length ? el('ul', { class: 'culprits' }, st.culprits.map((c) => el('li', { class: 'mono' }, c))) : null)))
      : el('p', { class: 'empty' }, 'No allow statement applied to this request.');

    // Lines to highlight: every statement considered, plus the granting one.
    const lines = new Set(statements.map((st) => st.line).filter(Boolean));
    if (e.grantedBy?.line) lines.add(e.grantedBy.line);
    // Culprits name where they are ("L37:17 `d.lat <= 90` → false …"): highlight those too.
    const culpritLines = new Set();
    for (const st of statements) for (const c of st.culprits || []) for (const m of String(c).matchAll(/\bL(\d+):\d+/g)) culpritLines.add(Number(m[1]));
    for (const n of culpritLines) lines.add(n);
    const focusLine = e.grantedBy?.line
      || statements.find((st) => st.result !== 'true')?.line
      || statements[0]?.line;
    let src = null;
    if (s.rules?.source) {
      src = sourceLines(s.rules.source, lines);
      if (e.grantedBy?.line) src.querySelector(`[data-line="${e.grantedBy.line}"]`)?.classList.add('hl-grant');
      for (const st of statements) if (st.result !== 'true') src.querySelector(`[data-line="${st.line}"]`)?.classList.add('hl-fail');
      for (const n of culpritLines) src.querySelector(`[data-line="${n}"]`)?.classList.add('hl-culprit');
    }

    detail.replaceChildren(
      el('div', { class: 'pane-head' }, heading, button('Close', () => {
        s.selectedId = null; detail.hidden = true;
        for (const tr of tbody.rows) tr.classList.remove('selected');
        tbody.querySelector(`[data-id="${e.id}"]`)?.focus();
      }, { class: 'small', id: 'request-detail-close' })),
      el('div', { class: 'detail-body' },
        el('div', { class: 'detail-info' },
          facts,
          el('h3', {}, 'Allow statements evaluated'), stList,
          el('h3', {}, 'Explanation'), el('pre', { class: 'explanation', 'data-testid': 'explanation' }, e.explanation || '(none)')),
        el('div', { class: 'detail-source' },
          el('h3', {}, `Rules source${s.rules?.file ? ` (${s.rules.file})` : ''}`),
          src || el('p', { class: 'empty' }, s.rules ? 'No rules loaded.' : 'Loading rules…'))));
    detail.hidden = false;
    if (src && focusLine) {
      // Scroll the source box (not the page) to the line once laid out.
      requestAnimationFrame(() => scrollWithin(src, src.querySelector(`[data-line="${focusLine}"]`)));
    }
    if (focus) heading.focus({ preventScroll: false });
  }

  // --------------------------------------------------------------------------------------

  const offs = [
    onEvent('request', (e) => add(e, true)),
    onEvent('rules', loadRules),
  ];
  renderRows();
  load().catch(showError);
  loadRules();
  return { destroy() { offs.forEach((f) => f()); } };
}

/** The path as text with a <wbr> after each "/", so it wraps between segments. */
function pathWithBreaks(path) {
  const parts = String(path ?? '').split('/');
  return parts.flatMap((p, i) => (i < parts.length - 1 ? [p + '/', el('wbr')] : [p])).filter((x) => x !== '');
}

function resultClass(result) {
  if (result === 'true') return 'res-true';
  if (result === 'false') return 'res-false';
  return 'res-error';
}
