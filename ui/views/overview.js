// Overview: project facts, the running emulators, and an export form.

import { el, labelled, showError, showInfo, readClock } from '../app.js';
import * as api from '../api.js';

const NAMES = { firestore: 'Firestore', auth: 'Authentication', functions: 'Functions', hub: 'Emulator Hub', ui: 'Emulator UI' };
const VIEWS = { firestore: '#/firestore', auth: '#/auth', functions: '#/functions' };

export function mount(root) {
  const facts = el('dl', { class: 'facts', id: 'project-facts' }, el('dt', {}, 'Loading…'));
  const emuBody = el('tbody', { id: 'emulator-rows' });

  const pathInput = el('input', { id: 'export-path', type: 'text', placeholder: './export', spellcheck: 'false', required: true });
  const result = el('output', { id: 'export-result', for: 'export-path', 'aria-live': 'polite' });
  const form = el('form', { class: 'inline-form', id: 'export-form', 'aria-label': 'Export data' },
    labelled('Export directory (on the emulator machine)', pathInput),
    el('button', { type: 'submit', id: 'export-button', class: 'primary' }, 'Export'),
    result);
  form.addEventListener('submit', (ev) => { ev.preventDefault(); doExport().catch(showError); });

  root.append(
    el('h1', {}, 'Overview'),
    el('section', { 'aria-labelledby': 'h-project' }, el('h2', { id: 'h-project' }, 'Project'), facts),
    el('section', { 'aria-labelledby': 'h-emulators' }, el('h2', { id: 'h-emulators' }, 'Running emulators'),
      el('div', { class: 'table-box' }, el('table', { class: 'grid', id: 'emulators-table' },
        el('thead', {}, el('tr', {}, ['Emulator', 'Host:port', 'Link'].map((h) => el('th', { scope: 'col' }, h)))), emuBody))),
    el('section', { 'aria-labelledby': 'h-export' }, el('h2', { id: 'h-export' }, 'Export'),
      el('p', { class: 'hint' }, 'Writes the Firestore and Auth data as the Firebase CLI\'s export folder, which ',
        el('code', {}, 'hearth start --import'), ' and ', el('code', {}, 'firebase emulators:start --import'),
        ' load. A relative path is resolved against the directory Hearth was started from.'),
      form));

  async function doExport() {
    const path = pathInput.value.trim();
    if (!path) { result.textContent = 'Enter a directory.'; pathInput.focus(); return; }
    const button = form.querySelector('#export-button');
    button.disabled = true;
    result.textContent = 'Exporting…';
    try {
      const r = await api.exportData(path);
      // A 2xx answer is success (failures throw); its message is "OK", possibly followed by
      // a summary ("OK: 1 database, 12 documents, 5 accounts").
      const msg = String(r?.message ?? (typeof r === 'string' ? r : '')).trim();
      const detail = msg.replace(/^OK\s*:?\s*/i, '');
      result.textContent = `Exported to ${path}${detail ? ` (${detail})` : ''}`;
      result.dataset.ok = 'true';
      showInfo(result.textContent);
    } catch (err) {
      result.textContent = err.message;
      result.dataset.ok = 'false';
      throw err;
    } finally {
      button.disabled = false;
    }
  }

  const clock = el('dd', { id: 'overview-clock' }, '…');
  api.getConfig().then((c) => {
    facts.replaceChildren(
      el('dt', {}, 'Project ID'), el('dd', { id: 'overview-project', class: 'mono' }, c.projectId || ''),
      el('dt', {}, 'Version'), el('dd', {}, c.version || ''),
      el('dt', {}, 'Data file'), el('dd', { id: 'overview-data-file', class: 'mono' }, c.dataFile || 'in memory'),
      el('dt', {}, 'Rules file'), el('dd', { id: 'overview-rules-file', class: 'mono' }, c.rulesFile || 'none'),
      el('dt', {}, 'Imported from'), el('dd', { class: 'mono' }, c.importedFrom || '—'),
      el('dt', {}, 'Clock'), clock);
    readClock().then((k) => { clock.textContent = k.description; }).catch(() => { clock.textContent = 'unknown'; });
    const order = Object.keys(NAMES);
    const rank = (n) => (order.indexOf(n) === -1 ? order.length : order.indexOf(n));
    const rows = Object.entries(c.emulators || {}).sort((a, b) => rank(a[0]) - rank(b[0])).map(([name, e]) => {
      const hp = hostPort(e);
      return el('tr', { 'data-testid': 'emulator-row', dataset: { name } },
        el('td', {}, NAMES[name] || name),
        el('td', { class: 'mono' }, hp),
        el('td', {}, VIEWS[name] ? el('a', { href: VIEWS[name] }, 'Open view') : '',
          ' ', el('a', { href: `http://${linkHost(e.host)}:${e.port}/`, rel: 'noopener' }, `http://${linkHost(e.host)}:${e.port}/`)));
    });
    emuBody.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: '3', class: 'empty' }, 'None'))]));
  }).catch((err) => { facts.replaceChildren(el('dt', {}, 'Could not load the configuration.')); showError(err); });
  return {};
}

const hostPort = (e) => `${e.host?.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;

/** The host to link to: a wildcard bind address is reached through the page's own host. */
function linkHost(host) {
  if (!host || host === '0.0.0.0' || host === '::') {
    const h = location.hostname;
    return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
  }
  return host.includes(':') ? `[${host}]` : host;
}
