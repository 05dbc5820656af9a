// Router and shared helpers of the Hearth Emulator UI.
//
// Every view module exports `mount(root, rest)`, which renders into `root` and returns
// `{update?(rest), destroy?()}`. Navigating inside the same view (e.g. between Firestore
// paths) calls `update` when the view has one; otherwise the old view is destroyed and the
// new one mounted. Views only touch the DOM through `el()` (textContent, never innerHTML).

import * as overview from './views/overview.js';
import * as firestore from './views/firestore.js';
import * as requests from './views/requests.js';
import * as rules from './views/rules.js';
import * as auth from './views/auth.js';
import * as functions from './views/functions.js';
import { getConfig } from './api.js';

const views = { overview, firestore, requests, rules, auth, functions };

// ---------------------------------------------------------------------------------------
// DOM helpers

/**
 * Creates an element. `props`: `class`, `text` (textContent), `dataset` (object), `value`,
 * `checked`, `on<event>` (handler; errors and rejected promises go to the status area),
 * anything else becomes an attribute (`true` → empty attribute, null/false → omitted).
 * Children: nodes or strings (strings become text nodes), arrays are flattened.
 */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'dataset') { for (const [dk, dv] of Object.entries(v)) if (dv != null) e.dataset[dk] = dv; }
    else if (k === 'value') e.value = v;
    else if (k === 'checked') e.checked = !!v;
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), guard(v));
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

/** Wraps a (possibly async) handler so that a throw or rejection is shown, never uncaught. */
export function guard(fn) {
  return function (...args) {
    try {
      const r = fn.apply(this, args);
      if (r && typeof r.catch === 'function') r.catch(showError);
      return r;
    } catch (err) {
      showError(err);
    }
  };
}

/** A button element (`type="button"`) with a click handler. */
export function button(text, onclick, props = {}) {
  return el('button', { type: 'button', ...props, onclick }, text);
}

/** A `<label>` + control pair in a wrapper div. */
export function labelled(text, control, props = {}) {
  if (!control.id) control.id = 'f-' + Math.random().toString(36).slice(2, 9);
  return el('div', { class: 'field ' + (props.class || '') }, el('label', { for: control.id }, text), control);
}

/** Pretty JSON in a `<pre>`; `undefined` → empty. */
export function jsonBlock(value, props = {}) {
  const text = value === undefined ? '' : JSON.stringify(value, null, 2);
  return el('pre', { ...props, class: 'json ' + (props.class || '') }, text);
}

/** "HH:MM:SS.mmm" in local time, with the full date in a title. */
export function timeCell(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return el('span', {}, iso || '');
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  const t = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
  return el('time', { datetime: iso, title: d.toString() }, t);
}

/** Calls `fn` at most once per `ms`, after the last call (trailing debounce). */
export function debounce(fn, ms) {
  let timer = null;
  const d = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; guard(fn)(...args); }, ms);
  };
  d.cancel = () => clearTimeout(timer);
  return d;
}

/** Renders source text as numbered lines; lines in `highlight` (1-based) get class `hl`. */
export function sourceLines(source, highlight = new Set()) {
  const box = el('div', { class: 'source', role: 'region', 'aria-label': 'Rules source', tabindex: '0' });
  source.split('\n').forEach((line, i) => {
    const n = i + 1;
    box.append(el('div', { class: 'src-line' + (highlight.has(n) ? ' hl' : ''), dataset: { line: n } },
      el('span', { class: 'ln', 'aria-hidden': 'true' }, String(n)),
      el('span', { class: 'code' }, line || ' ')));
  });
  return box;
}

/**
 * Runs `render` (which replaces `container`'s children) and gives the focus back to the
 * equivalent new element (same id, data-fk, or data-testid + data-id) if it was inside.
 */
export function keepFocus(container, render) {
  const a = document.activeElement;
  let sel = null;
  if (a && a !== container && container.contains(a)) {
    if (a.id) sel = '#' + CSS.escape(a.id);
    else if (a.dataset.fk) sel = `[data-fk="${CSS.escape(a.dataset.fk)}"]`;
    else if (a.dataset.testid && a.dataset.id !== undefined) sel = `[data-testid="${CSS.escape(a.dataset.testid)}"][data-id="${CSS.escape(a.dataset.id)}"]`;
  }
  render();
  if (sel && !container.contains(document.activeElement)) container.querySelector(sel)?.focus();
}

/** Scrolls `child` to the middle of the scrollable `box` without moving the page. */
export function scrollWithin(box, child) {
  if (!box || !child) return;
  const offset = child.getBoundingClientRect().top - box.getBoundingClientRect().top;
  box.scrollTop = Math.max(0, box.scrollTop + offset - box.clientHeight / 2 + child.clientHeight / 2);
}

// ---------------------------------------------------------------------------------------
// Status area (id `status`): errors stay until dismissed or replaced, notes fade after a while.

let statusTimer = null;

export function showError(err) {
  const msg = err instanceof Error ? err.message : String(err);
  console.error(err);
  setStatus(msg, 'error');
}

export function showInfo(msg) {
  setStatus(msg, 'info');
  const mine = msg;
  statusTimer = setTimeout(() => {
    if (document.getElementById('status')?.textContent === mine) clearStatus();
  }, 6000);
}

function setStatus(msg, kind) {
  clearTimeout(statusTimer);
  const bar = document.getElementById('status-bar');
  const s = document.getElementById('status');
  if (!bar || !s) return;
  s.textContent = msg;
  s.dataset.kind = kind;
  bar.className = 'status-bar ' + kind;
  document.getElementById('status-dismiss').hidden = false;
}

export function clearStatus() {
  const bar = document.getElementById('status-bar');
  const s = document.getElementById('status');
  if (s) { s.textContent = ''; delete s.dataset.kind; }
  // The bar keeps its (reserved) space, so the page never moves when a message comes or goes.
  if (bar) bar.className = 'status-bar empty';
  const d = document.getElementById('status-dismiss');
  if (d) d.hidden = true;
}

// ---------------------------------------------------------------------------------------
// Server-Sent Events: one EventSource shared by all views.

const listeners = new Map(); // type → Set of handlers
let source = null;
let rulesSeen = new Date(); // page load, then each `rules` event

/** When the UI last saw the rules (re)loaded: the page load or the latest `rules` event. */
export const rulesLoadedAt = () => rulesSeen;

function startEvents() {
  if (source || typeof EventSource === 'undefined') return;
  const indicator = document.getElementById('live-indicator');
  source = new EventSource('/api/events');
  source.onopen = () => { if (indicator) { indicator.textContent = 'live'; indicator.dataset.state = 'open'; } };
  source.onerror = () => { if (indicator) { indicator.textContent = 'reconnecting…'; indicator.dataset.state = 'error'; } };
  for (const type of ['change', 'request', 'invocation', 'rules', 'auth']) {
    source.addEventListener(type, (ev) => {
      let data;
      try { data = ev.data ? JSON.parse(ev.data) : {}; } catch (e) { showError(`Bad ${type} event: ${e.message}`); return; }
      if (type === 'rules') rulesSeen = new Date();
      for (const fn of listeners.get(type) || []) guard(fn)(data);
    });
  }
}

/** Subscribes to a server event type; returns the unsubscribe function. */
export function onEvent(type, fn) {
  startEvents();
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(fn);
  return () => listeners.get(type)?.delete(fn);
}

// ---------------------------------------------------------------------------------------
// Router

/** Splits `#/view/a/b` into the view name and the decoded rest segments. */
function parseHash() {
  const raw = location.hash.replace(/^#\/?/, '');
  const parts = raw.split('/').filter((s) => s !== '');
  const name = parts.shift() || 'overview';
  // Ids never contain '/', so an encoded one (%2F) separates segments too.
  const rest = parts.flatMap((s) => { try { return decodeURIComponent(s).split('/'); } catch { return [s]; } })
    .filter((s) => s !== '');
  return { name, rest };
}

/** `#/firestore/a/b` for segments ['a', 'b'] (each segment percent-encoded). */
export function firestoreHash(segments) {
  return '#/firestore' + segments.map((s) => '/' + encodeURIComponent(s)).join('');
}

let current = null; // {name, instance}

function route() {
  const { name, rest } = parseHash();
  const mod = views[name];
  if (!mod) { location.replace('#/'); return; }
  for (const a of document.querySelectorAll('.nav a')) {
    if (a.dataset.view === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (current && current.name === name && current.instance?.update) {
    guard(() => current.instance.update(rest))();
    return;
  }
  if (current?.instance?.destroy) guard(() => current.instance.destroy())();
  if (current) clearStatus(); // a message of the previous view no longer applies
  const main = document.getElementById('main');
  main.replaceChildren();
  main.dataset.view = name;
  const navText = document.querySelector(`.nav a[data-view="${name}"]`)?.textContent;
  document.title = `${navText || name[0].toUpperCase() + name.slice(1)} — Hearth Emulator UI`;
  let instance = null;
  try { instance = mod.mount(main, rest) || null; } catch (err) { showError(err); }
  current = { name, instance };
}

function start() {
  window.addEventListener('error', (e) => { showError(e.error || e.message); e.preventDefault(); });
  window.addEventListener('unhandledrejection', (e) => { showError(e.reason); e.preventDefault(); });
  document.getElementById('status-dismiss').addEventListener('click', clearStatus);
  window.addEventListener('hashchange', route);
  startEvents();
  getConfig().then((c) => {
    const p = document.getElementById('project-id');
    if (p) p.textContent = c.projectId || '';
  }).catch(showError);
  watchClock();
  route();
}

/** The emulators' clock (`GET /emulator/v1/clock` on the Firestore port), read every 5 s. */
export async function readClock() {
  const r = await fetch('/api/firestore/emulator/v1/clock');
  if (!r.ok) throw new Error(`clock: HTTP ${r.status}`);
  return r.json();
}

/** Shows a badge in the header while the clock is frozen or moved; hidden on the system clock. */
function watchClock() {
  const badge = document.getElementById('clock-indicator');
  if (!badge) return;
  const show = (c) => {
    badge.hidden = !c || c.mode === 'system';
    badge.textContent = c && c.mode !== 'system' ? `Clock ${c.mode === 'frozen' ? 'frozen' : 'moved'}: ${c.now}` : '';
    badge.title = c ? c.description : '';
  };
  const tick = () => readClock().then(show).catch(() => show(null));
  tick();
  setInterval(tick, 5000);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
