// Authentication: the users of the Auth emulator, add / edit / delete / clear all, searched
// by uid, email, display name or phone; the "one account per email address" setting; live
// (the `auth` event).

import { el, button, labelled, showError, showInfo, keepFocus, onEvent, debounce } from '../app.js';
import * as api from '../api.js';

const COLUMNS = ['UID', 'Email', 'Display name', 'Phone', 'Providers', 'Disabled', 'Custom claims', 'Created', 'Signed in', 'Actions'];
const SEARCH_MAX = 10000; // a search loads the users not loaded yet, up to this many

/** The text a search looks in: uid, email, display name, phone number. */
const searchText = (u) => [u.localId, u.email, u.displayName, u.phoneNumber].filter(Boolean).join('\n').toLocaleLowerCase();

export function mount(root) {
  const s = { users: [], nextPageToken: null, editing: null, available: true, stale: false, config: null };
  let rows = new Map(); // uid → {sig, tr}
  let loadingAll = false;

  const email = el('input', { id: 'user-email', type: 'email', autocomplete: 'off', spellcheck: 'false' });
  const password = el('input', { id: 'user-password', type: 'password', autocomplete: 'new-password' });
  const name = el('input', { id: 'user-name', type: 'text', autocomplete: 'off' });
  const phone = el('input', { id: 'user-phone', type: 'tel', autocomplete: 'off', placeholder: '+1 555 0100', spellcheck: 'false' });
  const photo = el('input', { id: 'user-photo', type: 'url', autocomplete: 'off', placeholder: 'https://…', spellcheck: 'false' });
  const anonymous = el('input', { id: 'user-anonymous', type: 'checkbox' });
  const addError = el('p', { class: 'editor-error', role: 'alert', id: 'add-user-error' });
  const addForm = el('form', { class: 'inline-form', id: 'add-user-form', 'aria-label': 'Add user' },
    labelled('Email', email), labelled('Password', password), labelled('Display name', name),
    labelled('Phone number', phone), labelled('Photo URL', photo),
    el('div', { class: 'field checkbox' }, anonymous, el('label', { for: 'user-anonymous' }, 'Anonymous')),
    el('button', { type: 'submit', id: 'add-user', class: 'primary' }, 'Add user'),
    addError);
  addForm.addEventListener('submit', (ev) => { ev.preventDefault(); addUser().catch(showError); });

  const providers = el('p', { id: 'providers', class: 'meta' });
  const tbody = el('tbody', { id: 'user-rows' });
  const more = el('div', { class: 'more' });
  const search = el('input', {
    id: 'user-search', type: 'search', spellcheck: 'false', autocomplete: 'off',
    placeholder: 'uid, email, display name or phone', 'aria-describedby': 'user-count',
  });
  const count = el('p', { class: 'meta', id: 'user-count', 'aria-live': 'polite' });
  const searchForm = el('form', { role: 'search', class: 'filters', 'aria-label': 'Search users', onsubmit: (e) => e.preventDefault() },
    labelled('Search users', search));
  const onSearch = debounce(render, 120);
  search.addEventListener('input', onSearch);
  search.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && search.value) { ev.preventDefault(); search.value = ''; render(); } });

  const oneAccount = el('input', { id: 'one-account-per-email', type: 'checkbox', role: 'switch', disabled: true, 'aria-describedby': 'one-account-hint' });
  const oneAccountHint = el('p', { class: 'hint', id: 'one-account-hint' });
  oneAccount.addEventListener('change', () => setOneAccount(oneAccount.checked).catch(showError));
  const settings = el('section', { class: 'settings', 'aria-labelledby': 'h-auth-settings' },
    el('h2', { id: 'h-auth-settings' }, 'Settings'),
    el('div', { class: 'field checkbox' }, oneAccount, el('label', { for: 'one-account-per-email' }, 'One account per email address')),
    oneAccountHint);

  root.append(
    el('div', { class: 'toolbar' }, el('h1', {}, 'Authentication'), el('span', { class: 'spacer' }),
      button('Refresh', () => load(), { id: 'users-refresh' }),
      button('Clear all users', clearAll, { id: 'clear-users', class: 'danger' })),
    addForm,
    providers,
    searchForm,
    count,
    el('div', { class: 'table-box' }, el('table', { class: 'grid', id: 'users-table' },
      el('thead', {}, el('tr', {}, COLUMNS.map((h) => el('th', { scope: 'col' }, h)))), tbody)),
    more,
    settings);

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
      addForm.hidden = searchForm.hidden = settings.hidden = true;
      root.querySelector('#clear-users').hidden = true;
      return;
    }
    if (!append) loadConfig().catch(showError);
    const r = await api.listUsers(append ? s.nextPageToken : undefined);
    if (!append) s.stale = false;
    s.users = append ? s.users.concat(r.users) : r.users;
    s.nextPageToken = r.nextPageToken;
    render();
  }

  /** Loads every page not loaded yet (a search looks at all users), up to SEARCH_MAX. */
  async function loadAll() {
    if (loadingAll) return;
    loadingAll = true;
    try {
      while (s.nextPageToken && s.users.length < SEARCH_MAX && search.value.trim()) {
        const r = await api.listUsers(s.nextPageToken);
        const known = new Set(s.users.map((u) => u.localId));
        s.users = s.users.concat(r.users.filter((u) => !known.has(u.localId)));
        s.nextPageToken = r.nextPageToken;
      }
    } finally {
      loadingAll = false;
    }
    render();
  }

  async function loadConfig() {
    s.config = await api.getAuthConfig();
    renderConfig();
  }

  function renderConfig() {
    const allow = !!s.config?.signIn?.allowDuplicateEmails;
    oneAccount.disabled = !s.config;
    oneAccount.checked = !allow;
    oneAccountHint.textContent = allow
      ? 'Off: a provider sign-in (Google, …) with an email address already in use creates another account.'
      : 'On: a provider sign-in (Google, …) with an email address an account already has uses that account.';
  }

  async function setOneAccount(on) {
    oneAccount.disabled = true;
    try {
      s.config = await api.updateAuthConfig({ signIn: { allowDuplicateEmails: !on } });
      showInfo(on ? 'One account per email address' : 'Multiple accounts per email address allowed');
    } catch (err) {
      await loadConfig().catch(() => {});
      throw err;
    } finally {
      renderConfig();
    }
  }

  async function clearAll() {
    if (!confirm('Delete ALL users of this project? This cannot be undone.')) return;
    await api.clearAllUsers();
    s.editing = null;
    showInfo('All users deleted');
    await load();
  }

  async function addUser() {
    addError.textContent = '';
    const body = {};
    if (!anonymous.checked) {
      // An account needs a way to sign in: email and password, or a phone number, unless it is anonymous.
      const e = email.value.trim(), pw = password.value, ph = phone.value.trim();
      if ((e || pw || !ph) && !(e && pw)) {
        addError.textContent = e || pw ? 'Enter both an email and a password (or neither, with a phone number).'
          : 'Enter an email and a password, or a phone number, or tick Anonymous.';
        (e ? password : email).focus();
        return;
      }
      if (email.value.trim()) {
        body.email = email.value.trim();
        body.password = password.value;
      }
      if (phone.value.trim()) body.phoneNumber = phone.value.trim();
    }
    if (name.value.trim()) body.displayName = name.value.trim();
    if (photo.value.trim()) body.photoUrl = photo.value.trim();
    let r;
    try {
      r = await api.addUser(body);
    } catch (err) {
      addError.textContent = err.message;
      return;
    }
    showInfo(`Added ${anonymous.checked ? 'anonymous ' : ''}user ${r?.localId || ''}`);
    email.value = password.value = name.value = phone.value = photo.value = '';
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
    const q = search.value.trim().toLocaleLowerCase();
    if (q && s.nextPageToken && s.users.length < SEARCH_MAX) loadAll().catch(showError);
    // The user being edited stays in view, so what was typed is not lost.
    const shown = q ? s.users.filter((u) => u.localId === s.editing || searchText(u).includes(q)) : s.users;
    const n = s.users.length;
    const total = `${n} user${n === 1 ? '' : 's'}${s.nextPageToken ? ' loaded (more available)' : ''}`;
    count.textContent = q ? `${shown.length} of ${total} match “${search.value.trim()}”` : total;
    const nodes = shown.length
      ? shown.flatMap((u) => (s.editing === u.localId ? [rowFor(u), editRow(u)] : [rowFor(u)]))
      : [el('tr', {}, el('td', { colspan: String(COLUMNS.length), class: 'empty' }, q && n ? 'No users match the search' : 'No users'))];
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
      el('td', { class: 'mono' }, u.phoneNumber || ''),
      el('td', {}, provs.join(', ') || (isAnonymous(u) ? 'anonymous' : '')),
      el('td', {}, u.disabled ? 'yes' : 'no'),
      el('td', { class: 'mono' }, u.customAttributes && u.customAttributes !== '{}' ? u.customAttributes : ''),
      el('td', {}, when(u.createdAt)),
      el('td', {}, when(u.lastLoginAt)),
      el('td', { class: 'row-actions' },
        button('Edit', () => { s.editing = s.editing === u.localId ? null : u.localId; render(); document.getElementById('edit-name')?.focus(); },
          { class: 'small', 'data-testid': 'edit-user', 'aria-label': `Edit ${u.email || u.localId}`, 'aria-expanded': String(s.editing === u.localId), dataset: { fk: 'edit:' + u.localId } }),
        button('Delete', () => deleteUser(u), { class: 'small danger', 'data-testid': 'delete-user', 'aria-label': `Delete ${u.email || u.localId}` })));
  }

  function editRow(u) {
    const dn = el('input', { id: 'edit-name', type: 'text', value: u.displayName || '' });
    const em = el('input', { id: 'edit-email', type: 'email', value: u.email || '', spellcheck: 'false' });
    const pw = el('input', { id: 'edit-password', type: 'password', autocomplete: 'new-password', placeholder: 'unchanged' });
    const ph = el('input', { id: 'edit-phone', type: 'tel', value: u.phoneNumber || '', spellcheck: 'false', placeholder: '+1 555 0100' });
    const photoUrl = el('input', { id: 'edit-photo', type: 'url', value: u.photoUrl || '', spellcheck: 'false', placeholder: 'https://…' });
    const dis = el('input', { id: 'edit-disabled', type: 'checkbox', checked: !!u.disabled });
    const claims = el('textarea', { id: 'edit-claims', rows: '3', class: 'mono', spellcheck: 'false', value: u.customAttributes || '', placeholder: '{"admin": true}' });
    const error = el('p', { class: 'editor-error', role: 'alert', id: 'edit-error' });
    const form = el('form', { class: 'edit-user', 'aria-label': `Edit user ${u.localId}` },
      labelled('Display name', dn), labelled('Email', em), labelled('New password', pw),
      labelled('Phone number', ph), labelled('Photo URL', photoUrl),
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
      // Emptied fields are removed: the photo as an attribute, the phone number as a provider.
      if (photoUrl.value.trim() !== (u.photoUrl || '')) {
        if (photoUrl.value.trim()) changes.photoUrl = photoUrl.value.trim();
        else changes.deleteAttribute = ['PHOTO_URL'];
      }
      if (ph.value.trim() !== (u.phoneNumber || '')) {
        if (ph.value.trim()) changes.phoneNumber = ph.value.trim();
        else changes.deleteProvider = ['phone'];
      }
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
  return { destroy() { off(); live.cancel(); onSearch.cancel(); document.removeEventListener('visibilitychange', onVisible); } };
}

/** A time in milliseconds since the epoch (the API's string) as local date and time; '' when absent. */
const when = (ms) => (ms ? new Date(Number(ms)).toLocaleString() : '');

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
