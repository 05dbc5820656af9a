// Functions: the deployed functions (scheduled ones can be run now), the invocation log
// (live, filtered by text and log level) and the FCM outbox of messages the functions sent.

import { el, button, labelled, showError, showInfo, onEvent, debounce, timeCell, jsonBlock } from '../app.js';
import * as api from '../api.js';

const MAX_ROWS = 1000;
const LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR']; // FunctionsLogger's severities, as each log line starts

/** The text a filter looks in: name, kind, uid, arguments, result, error and log lines. */
const haystack = (inv) => [inv.name, inv.kind, inv.uid, JSON.stringify(inv.arguments ?? null), JSON.stringify(inv.result ?? null),
  inv.error ? `${inv.error.status || ''} ${inv.error.message || ''}` : '', ...(inv.logs || [])].join('\n').toLocaleLowerCase();

export function mount(root) {
  const s = { invocations: [], ids: new Set() };

  const fnBody = el('tbody', { id: 'function-rows' });
  const triggerStats = el('p', { class: 'meta', id: 'trigger-stats', 'aria-live': 'polite' });
  const invBody = el('tbody', { id: 'invocation-rows' });
  const outboxBox = el('div', { class: 'table-box', id: 'outbox' });
  const invCount = el('p', { class: 'meta', id: 'invocation-count', 'aria-live': 'polite' });
  const invText = el('input', { id: 'invocation-filter', type: 'search', spellcheck: 'false', placeholder: 'function, text in logs, arguments, error' });
  const invLevel = el('select', { id: 'invocation-level' }, el('option', { value: '' }, 'Any'), LEVELS.map((l) => el('option', { value: l }, l)));
  const refilter = debounce(renderInvocations, 120);
  invText.addEventListener('input', refilter);
  invLevel.addEventListener('change', renderInvocations);

  root.append(
    el('div', { class: 'toolbar' }, el('h1', {}, 'Functions'), el('span', { class: 'spacer' }),
      button('Refresh', () => { loadFunctions().catch(showError); loadOutbox().catch(showError); }, { id: 'functions-refresh' })),
    el('section', { 'aria-labelledby': 'h-functions' },
      el('h2', { id: 'h-functions' }, 'Functions'),
      el('div', { class: 'table-box' }, el('table', { class: 'grid', id: 'functions-table' },
        el('thead', {}, el('tr', {}, ['Name', 'Kind', 'Region', 'Trigger', 'Run', 'Result'].map((h) => el('th', { scope: 'col' }, h)))),
        fnBody)),
      triggerStats),
    el('section', { 'aria-labelledby': 'h-invocations' },
      el('h2', { id: 'h-invocations' }, 'Invocations'),
      el('form', { class: 'filters', role: 'search', 'aria-label': 'Filter invocations', onsubmit: (e) => e.preventDefault() },
        labelled('Filter', invText), labelled('With a log line at level', invLevel)),
      invCount,
      el('div', { class: 'table-box tall' }, el('table', { class: 'grid', id: 'invocations-table' },
        el('thead', {}, el('tr', {}, ['#', 'Name', 'Time', 'Duration', 'Arguments', 'Result or error', 'Logs'].map((h) => el('th', { scope: 'col' }, h)))),
        invBody))),
    el('section', { 'aria-labelledby': 'h-outbox' },
      el('div', { class: 'pane-head' }, el('h2', { id: 'h-outbox' }, 'FCM outbox'),
        el('div', { class: 'actions' },
          button('Refresh', () => loadOutbox(), { id: 'outbox-refresh' }),
          button('Clear', clearOutbox, { id: 'outbox-clear', class: 'danger' }))),
      outboxBox));

  // --------------------------------------------------------------------------------------
  // Functions and invocations

  async function loadFunctions() {
    const r = await api.getFunctions();
    showTriggers(r?.triggers);
    const fns = r?.functions || [];
    fnBody.replaceChildren(...(fns.length ? fns.map(functionRow)
      : [el('tr', {}, el('td', { colspan: '6', class: 'empty' }, 'No functions loaded'))]));
    for (const inv of r?.invocations || []) addInvocation(inv, false);
    s.invocations.sort((a, b) => a.id - b.id);
    renderInvocations();
  }

  /** Trigger delivery: on or off, the backlog, the counts and the commit-to-delivery latency. */
  function showTriggers(t) {
    if (!t) { triggerStats.textContent = ''; return; }
    const ms = (v) => `${Number(v || 0).toFixed(1)} ms`;
    triggerStats.textContent = `Triggers ${t.enabled ? 'on' : 'off (hub: disableBackgroundTriggers)'} · backlog ${t.backlog}`
      + ` · ${t.delivered} delivered · ${t.failed} failed · ${t.retried} retried · ${t.loopsStopped} loops stopped`
      + ` · latency ${ms(t.lastLatencyMs)} (max ${ms(t.maxLatencyMs)})`;
  }
  const refreshTriggers = debounce(() => api.getFunctions().then((r) => showTriggers(r?.triggers)), 300);

  function functionRow(f) {
    const result = el('td', { 'data-testid': 'run-result', 'aria-live': 'polite' });
    const trigger = f.schedule ? `schedule: ${f.schedule}` : f.document ? `document: ${f.document}` : (f.kind === 'callable' ? 'HTTPS callable' : '');
    const run = f.kind === 'scheduled'
      ? button('Run now', async () => {
        result.replaceChildren('Running…');
        try {
          const r = await api.runFunction(f.name);
          result.replaceChildren(jsonBlock(r?.result !== undefined ? r.result : r));
          showInfo(`Ran ${f.name}`);
        } catch (err) {
          result.replaceChildren(el('span', { class: 'error-text' }, err.message));
          showError(err);
        }
      }, { 'data-testid': 'run-function', dataset: { name: f.name }, 'aria-label': `Run ${f.name} now` })
      : '';
    return el('tr', { 'data-testid': 'function-row', dataset: { name: f.name, kind: f.kind } },
      el('td', { class: 'mono' }, f.name), el('td', {}, f.kind || ''), el('td', {}, f.region || ''),
      el('td', { class: 'mono' }, trigger), el('td', {}, run), result);
  }

  /** Whether `inv` passes the filter: the text somewhere in it, a log line at the level (ERROR: or a failure). */
  function matches(inv) {
    const q = invText.value.trim().toLocaleLowerCase();
    if (q && !haystack(inv).includes(q)) return false;
    const level = invLevel.value;
    if (level && !(inv.logs || []).some((l) => l.startsWith(level + ' ')) && !(level === 'ERROR' && inv.error)) return false;
    return true;
  }

  function addInvocation(inv, live) {
    if (s.ids.has(inv.id)) return;
    s.ids.add(inv.id);
    s.invocations.push(inv);
    if (live && !matches(inv)) updateCount();
    else if (live) {
      invBody.querySelector('.empty')?.closest('tr')?.remove();
      invBody.prepend(invocationRow(inv)); // newest first
      while (invBody.rows.length > MAX_ROWS) invBody.rows[invBody.rows.length - 1].remove();
      updateCount();
    }
  }

  function renderInvocations() {
    const shown = s.invocations.filter(matches).slice(-MAX_ROWS).reverse(); // newest first
    const none = s.invocations.length ? 'No invocations match the filter' : 'No invocations yet';
    invBody.replaceChildren(...(shown.length ? shown.map(invocationRow)
      : [el('tr', {}, el('td', { colspan: '7', class: 'empty' }, none))]));
    updateCount();
  }

  function updateCount() {
    const n = s.invocations.length;
    const filtered = invText.value.trim() || invLevel.value;
    const m = filtered ? s.invocations.filter(matches).length : n;
    const total = `${n} invocation${n === 1 ? '' : 's'}`;
    invCount.textContent = `${filtered ? `${m} of ${total} match` : total}${m > MAX_ROWS ? ` (showing the newest ${MAX_ROWS})` : ''}`;
  }

  function invocationRow(inv) {
    const outcome = inv.error
      ? el('div', { class: 'error-text' }, `${inv.error.status || 'ERROR'}: ${inv.error.message || ''}`)
      : jsonBlock(inv.result);
    return el('tr', { 'data-testid': 'invocation-row', dataset: { id: String(inv.id), name: inv.name, outcome: inv.error ? 'error' : 'ok' } },
      el('td', {}, String(inv.id)),
      el('td', { class: 'mono' }, inv.name, el('div', { class: 'meta' }, [inv.kind, inv.uid ? `uid ${inv.uid}` : null].filter(Boolean).join(' · '))),
      el('td', {}, timeCell(inv.time)),
      el('td', {}, typeof inv.durationMs === 'number' ? `${inv.durationMs < 0.1 ? inv.durationMs.toFixed(3) : inv.durationMs.toFixed(1)} ms` : ''),
      el('td', {}, inv.arguments == null ? '' : jsonBlock(inv.arguments)),
      el('td', {}, outcome),
      el('td', {}, (inv.logs || []).length ? el('pre', { class: 'logs' }, inv.logs.join('\n')) : ''));
  }

  // --------------------------------------------------------------------------------------
  // FCM outbox: one row per message, one column per top-level field seen in any message.

  async function loadOutbox() {
    let messages, rejected;
    try {
      ({ messages, rejected } = await api.getOutbox());
    } catch (err) {
      outboxBox.replaceChildren(el('p', { class: 'empty' }, 'Outbox unavailable.'));
      throw err;
    }
    // The tokens FCM refused (unregistered: the app is told to forget them), below the messages.
    const refusedTable = rejected.length
      ? el('div', {},
        el('h3', {}, `Refused pushes (${rejected.length})`),
        el('table', { class: 'grid', id: 'outbox-rejected' },
          el('thead', {}, el('tr', {}, ['token', 'reason', 'at'].map((k) => el('th', { scope: 'col' }, k)))),
          el('tbody', {}, rejected.map((r) => el('tr', { 'data-testid': 'rejected-row' },
            el('td', {}, el('code', {}, r.token)),
            el('td', {}, r.code === 'messaging/registration-token-not-registered' ? 'unregistered (token to forget)' : r.code),
            el('td', {}, r.at))))))
      : '';
    if (!messages.length) {
      outboxBox.replaceChildren(el('p', { class: 'empty', id: 'outbox-empty' }, 'The outbox is empty.'), refusedTable);
      return;
    }
    const keys = [];
    for (const m of messages) for (const k of Object.keys(m || {})) if (!keys.includes(k)) keys.push(k);
    // Common fields first; the rest in order of appearance.
    const first = ['token', 'unregistered', 'notification', 'data'];
    keys.sort((a, b) => rank(a) - rank(b));
    function rank(k) { const i = first.indexOf(k); return i === -1 ? first.length : i; }
    const table = el('table', { class: 'grid', id: 'outbox-table' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), keys.map((k) => el('th', { scope: 'col' }, k)))),
      el('tbody', {}, messages.map((m, i) => el('tr', { 'data-testid': 'outbox-row', dataset: { unregistered: unregistered(m) } },
        el('td', {}, String(i + 1)),
        keys.map((k) => el('td', {}, cell(m?.[k])))))));
    outboxBox.replaceChildren(table, refusedTable);
  }

  async function clearOutbox() {
    if (!confirm('Clear the FCM outbox? All recorded messages are removed.')) return;
    await api.clearOutbox();
    showInfo('FCM outbox cleared');
    await loadOutbox();
  }

  const refreshOutbox = debounce(() => loadOutbox().catch(showError), 300);
  const offs = [onEvent('invocation', (inv) => { addInvocation(inv, true); refreshOutbox(); if (inv.kind === 'trigger') refreshTriggers(); })];
  loadFunctions().catch(showError);
  loadOutbox().catch(showError);
  return { destroy() { offs.forEach((f) => f()); refreshOutbox.cancel(); refilter.cancel(); } };
}

function cell(v) {
  if (v === undefined) return '';
  if (v === null || typeof v !== 'object') return el('span', { class: 'mono' }, String(v));
  return jsonBlock(v);
}

/** "true"/"false" when a message has an unregistered-like flag, else undefined. */
function unregistered(m) {
  for (const [k, v] of Object.entries(m || {})) if (/unregistered/i.test(k)) return String(v);
  return undefined;
}
