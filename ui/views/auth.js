// Authentication: the users of the Auth emulator, add / edit / delete; live (the `auth` event).

import { el, button, labelled, showError, showInfo, keepFocus, onEvent, debounce } from '../app.js';
import * as api from '../api.js';

const COLUMNS = ['UID', 'Email', 'Display name', 'Providers', 'Disabled', 'Custom claims', 'Created', 'Actions'];

export function mount(root) {
  const s = { users: [], nextPageToken: null, editing: null, available: true, stale: false };
  let rows = new Map(); // uid → {sig, tr}

  const email = el('input', { id: 'user-email', type: 'email', autocomplete: 'off', spellcheck: 'false' });
  const password = el('input', { id: 'user-password', type: 'password', autocomplete: 'new-password' });
  const name = el('input', { id: 'user-name', type: 'text', autocomplete: 'off' });
  const anonymous = el('input', { id: 'user-anonymous', type: 'checkbox' });
  const addError = el('p', { class: 'editor-error', role: 'alert', id: 'add-user-error' });
  const addForm = el('form', { class: 'inline-form', id: 'add-user-form', 'aria-label': 'Add user' },
    labelled('Email', email), labelled('Password', password), labelled('Display name', name),
    el('div', { class: 'field checkbox' }, anonymous, el('label', { for: 'user-anonymous' }, 'Anonymous')),
    el('button', { type: 'submit', id: 'add-user', class: 'primary' }, 'Add user'),
    addError);
  addForm.addEventListener('submit', (ev) => { ev.preventDefault(); addUser().catch(showError); });

  const providers = el('p', { id: 'providers', class: 'meta' });
  const tbody = el('tbody', { id: 'user-rows' });
  const more = el('div', { class: 'more' });
  root.append(
    el('div', { class: 'toolbar' }, el('h1', {}, 'Authentication'), el('span', { class: 'spacer' }),
      button('Refresh', () => load(), { id: 'users-refresh' })),
    addForm,
    providers,
    el('div', { class: 'table-box' }, el('table', { class: 'grid', id: 'users-table' },
      el('thead', {}, el('tr', {}, COLUMNS.map((h) => el('th', { scope: 'col' }, h)))), tbody)),
    more);

  /** Reloads as many users as are shown (a change elsewhere: a sign-up, the Admin SDK, a test). */
  async function reload() {
    if (!s.available) return;
    // An open editor would lose what was typed: wait until it closes.
    if (s.editing !== null) { s.stale = true; return; }
    const shown = Math.max(s.users.length, 1);
    let users = [];
    let token;
    do {
      const r = await api.listUsers(token);
      users = users.concat(r.users);
      token = r.nextPageToken;
    } while (token && users.length < shown);
    s.users = users;
    s.nextPageToken = token || null;
    s.stale = false;
    render();
  }
  const live = debounce(reload, 250);

  async function load(append = false) {
    const cfg = await api.getConfig().catch(() => null);
    if (cfg && cfg.emulators && !cfg.emulators.auth) {
      s.available = false;
      providers.textContent = 'The Auth emulator is not running.';
      tbody.replaceChildren();
      addForm.hidden = true;
      return;
    }
    const r = await api.listUsers(append ? s.nextPageToken : undefined);
    if (!append) s.stale = false;
    s.users = append ? s.users.concat(r.users) : r.users;
    s.nextPageToken = r.nextPageToken;
    render();
  }

  async function addUser() {
    addError.textContent = '';
    const body = {};
    if (!anonymous.checked) {
      // An account needs a way to sign in: email and password, unless it is anonymous.
      if (!email.value.trim() || !password.value) {
        addError.textContent = 'Enter an email and a password, or tick Anonymous.';
        (email.value.trim() ? password : email).focus();
        return;
      }
      body.email = email.value.trim();
      body.password = password.value;
    }
    if (name.value.trim()) body.displayName = name.value.trim();
    const r = await api.addUser(body);
    showInfo(`Added ${anonymous.checked ? 'anonymous ' : ''}user ${r?.localId || ''}`);
    email.value = password.value = name.value = '';
    anonymous.checked = false;
    await load();
  }

  function render() {
    if (s.editing === null && s.stale) live(); // a change waited for the editor to close
    const ids = new Set();
    for (const u of s.users) {
      for (const p of u.providerUserInfo || []) if (p.providerId) ids.add(p.providerId);
      if (isAnonymous(u)) ids.add('anonymous'); // shown as "anonymous" in its row
    }
    providers.textContent = `Sign-in providers in use: ${ids.size ? [...ids].sort().join(', ') : 'none'}`;
    // Rows whose user is unchanged are reused, so elements held by a user or a test stay valid.
    const cache = new Map();
    const rowFor = (u) => {
      const sig = JSON.stringify([u, s.editing === u.localId]);
      const old = rows.get(u.localId);
      const r = old && old.sig === sig ? old : { sig, tr: userRow(u) };
      cache.set(u.localId, r);
      return r.tr;
    };
    const nodes = s.users.length
      ? s.users.flatMap((u) => (s.editing === u.localId ? [rowFor(u), editRow(u)] : [rowFor(u)]))
      : [el('tr', {}, el('td', { colspan: String(COLUMNS.length), class: 'empty' }, 'No users'))];
    rows = cache;
    keepFocus(tbody, () => tbody.replaceChildren(...nodes));
    more.replaceChildren(...(s.nextPageToken ? [button('Load more', () => load(true), { id: 'load-more-users' })] : []));
  }

  function userRow(u) {
    const provs = (u.providerUserInfo || []).map((p) => p.providerId).filter(Boolean);
    return el('tr', { 'data-testid': 'user-row', dataset: { uid: u.localId } },
      el('td', { class: 'mono' }, u.localId),
      el('td', {}, u.email || ''),
      el('td', {}, u.displayName || ''),
      el('td', {}, provs.join(', ') || (isAnonymous(u) ? 'anonymous' : '')),
      el('td', {}, u.disabled ? 'yes' : 'no'),
      el('td', { class: 'mono' }, u.customAttributes && u.customAttributes !== '{}' ? u.customAttributes : ''),
      el('td', {}, u.createdAt ? new Date(Number(u.createdAt)).toLocaleString() : ''),
      el('td', { class: 'row-actions' },
        button('Edit', () => { s.editing = s.editing === u.localId ? null : u.localId; render(); document.getElementById('edit-name')?.focus(); },
          { class: 'small', 'data-testid': 'edit-user', 'aria-label': `Edit ${u.email || u.localId}`, 'aria-expanded': String(s.editing === u.localId), dataset: { fk: 'edit:' + u.localId } }),
        button('Delete', () => deleteUser(u), { class: 'small danger', 'data-testid': 'delete-user', 'aria-label': `Delete ${u.email || u.localId}` })));
  }

  function editRow(u) {
    const dn = el('input', { id: 'edit-name', type: 'text', value: u.displayName || '' });
    const em = el('input', { id: 'edit-email', type: 'email', value: u.email || '', spellcheck: 'false' });
    const pw = el('input', { id: 'edit-password', type: 'password', autocomplete: 'new-password', placeholder: 'unchanged' });
    const dis = el('input', { id: 'edit-disabled', type: 'checkbox', checked: !!u.disabled });
    const claims = el('textarea', { id: 'edit-claims', rows: '3', class: 'mono', spellcheck: 'false', value: u.customAttributes || '', placeholder: '{"admin": true}' });
    const error = el('p', { class: 'editor-error', role: 'alert', id: 'edit-error' });
    const form = el('form', { class: 'edit-user', 'aria-label': `Edit user ${u.localId}` },
      labelled('Display name', dn), labelled('Email', em), labelled('New password', pw),
      el('div', { class: 'field checkbox' }, dis, el('label', { for: 'edit-disabled' }, 'Disabled')),
      labelled('Custom claims (JSON object)', claims),
      error,
      el('div', { class: 'actions' },
        el('button', { type: 'submit', id: 'edit-save', class: 'primary' }, 'Save'),
        button('Cancel', close, { id: 'edit-cancel' })));
    claims.addEventListener('input', () => { error.textContent = claimsError(claims.value) || ''; });
    form.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); close(); } });
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const bad = claimsError(claims.value);
      if (bad) { error.textContent = bad; claims.focus(); return; }
      const changes = { localId: u.localId, disableUser: dis.checked, customAttributes: claims.value.trim() || '{}' };
      if (dn.value !== (u.displayName || '')) changes.displayName = dn.value;
      if (em.value.trim() !== (u.email || '') && em.value.trim()) changes.email = em.value.trim();
      if (pw.value) changes.password = pw.value;
      try {
        await api.updateUser(changes);
      } catch (err) {
        error.textContent = err.message;
        return;
      }
      s.editing = null;
      showInfo(`Saved user ${u.localId}`);
      await load().catch(showError);
      tbody.querySelector(`[data-fk="${CSS.escape('edit:' + u.localId)}"]`)?.focus();
    });
    function close() {
      s.editing = null;
      render();
      tbody.querySelector(`[data-fk="${CSS.escape('edit:' + u.localId)}"]`)?.focus();
    }
    return el('tr', { class: 'edit-row', 'data-testid': 'user-edit-row', dataset: { uid: u.localId } },
      el('td', { colspan: String(COLUMNS.length) }, form));
  }

  async function deleteUser(u) {
    if (!confirm(`Delete user ${u.email || u.localId}? This cannot be undone.`)) return;
    await api.deleteUser(u.localId);
    showInfo(`Deleted user ${u.email || u.localId}`);
    if (s.editing === u.localId) s.editing = null;
    await load();
  }

  // Mounting refetches (each time the view is shown); so does coming back to the browser tab.
  const onVisible = () => { if (document.visibilityState === 'visible') load().catch(showError); };
  document.addEventListener('visibilitychange', onVisible);
  const off = onEvent('auth', () => live());
  load().catch(showError);
  return { destroy() { off(); live.cancel(); document.removeEventListener('visibilitychange', onVisible); } };
}

/** A user without sign-in providers or email (the row shows "anonymous"). */
function isAnonymous(u) {
  return !(u.providerUserInfo || []).some((p) => p.providerId) && !u.email;
}

/** An error text when `text` is not empty and not a JSON object, else null. */
function claimsError(text) {
  if (!text.trim()) return null;
  try {
    const v = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'Custom claims must be a JSON object, e.g. {"admin": true}';
  } catch (e) {
    return `Invalid JSON: ${e.message}`;
  }
  return null;
}
