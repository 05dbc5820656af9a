// Firestore REST typed values: type names, display text, field paths, and the field editor.
//
// A value is the REST JSON form, e.g. {"integerValue":"12"} or {"mapValue":{"fields":{…}}}.
// Paths inside a document are arrays of segments: strings are map keys, numbers are array
// indexes (arrays can't be addressed by an update mask, so writes stop at the array field).

import { el, labelled, button } from './app.js';

/** Editor types in menu order, with display labels. */
export const TYPES = [
  ['string', 'string'], ['int', 'number(int)'], ['double', 'number(double)'], ['boolean', 'boolean'],
  ['null', 'null'], ['timestamp', 'timestamp'], ['geopoint', 'geopoint'], ['reference', 'reference'],
  ['bytes', 'bytes'], ['map', 'map'], ['array', 'array'],
];
const LABELS = Object.fromEntries(TYPES);
const KEYS = {
  stringValue: 'string', integerValue: 'int', doubleValue: 'double', booleanValue: 'boolean', nullValue: 'null',
  timestampValue: 'timestamp', geoPointValue: 'geopoint', referenceValue: 'reference', bytesValue: 'bytes',
  mapValue: 'map', arrayValue: 'array',
};

/** The editor type key of a REST value ('string', 'int', …), or 'unknown'. */
export function typeOf(v) {
  if (!v || typeof v !== 'object') return 'unknown';
  for (const k of Object.keys(v)) if (KEYS[k]) return KEYS[k];
  return 'unknown';
}

export const typeLabel = (t) => LABELS[t] || t;

export const mapFields = (v) => v?.mapValue?.fields || {};
export const arrayValues = (v) => v?.arrayValue?.values || [];

const DOCS_PREFIX = /^projects\/[^/]+\/databases\/[^/]+\/documents\//;

/** `projects/p/databases/(default)/documents/a/b` → `a/b`. */
export const refPath = (ref) => String(ref).replace(DOCS_PREFIX, '');

/** Display text of a value (maps/arrays summarised; their children are shown as rows). */
export function display(v) {
  switch (typeOf(v)) {
    case 'string': return v.stringValue;
    case 'int': return String(v.integerValue);
    case 'double': return String(v.doubleValue);
    case 'boolean': return String(v.booleanValue);
    case 'null': return 'null';
    case 'timestamp': return v.timestampValue;
    case 'geopoint': return `(${v.geoPointValue.latitude ?? 0}, ${v.geoPointValue.longitude ?? 0})`;
    case 'reference': return refPath(v.referenceValue);
    case 'bytes': return v.bytesValue;
    case 'map': { const n = Object.keys(mapFields(v)).length; return `{${n} field${n === 1 ? '' : 's'}}`; }
    case 'array': { const n = arrayValues(v).length; return `[${n} item${n === 1 ? '' : 's'}]`; }
    default: return JSON.stringify(v);
  }
}

/** Children of a map or array as [segment, value] pairs (map keys sorted). */
export function children(v) {
  if (typeOf(v) === 'map') return Object.keys(mapFields(v)).sort().map((k) => [k, mapFields(v)[k]]);
  if (typeOf(v) === 'array') return arrayValues(v).map((x, i) => [i, x]);
  return [];
}

// ---------------------------------------------------------------------------------------
// Paths and writes

/** A field path string for an update mask: plain segments as-is, others backtick-quoted. */
export function fieldPath(segments) {
  return segments.map((s) => (/^[A-Za-z_][A-Za-z_0-9]*$/.test(s) ? s : '`' + s.replace(/[\\`]/g, '\\$&') + '`')).join('.');
}

/** The value at `path` inside `fields` (a map's fields object), or undefined. */
export function valueAt(fields, path) {
  let v = { mapValue: { fields } };
  for (const s of path) {
    if (v === undefined) return undefined;
    v = typeof s === 'number' ? arrayValues(v)[s] : mapFields(v)[s];
  }
  return v;
}

export const DELETE = Symbol('delete');

/** `value` with `newValue` put at `path` (or removed for DELETE); never mutates `value`. */
function setIn(value, path, newValue) {
  if (path.length === 0) return newValue;
  const [s, ...rest] = path;
  if (typeof s === 'number') {
    const values = [...arrayValues(value)];
    if (newValue === DELETE && rest.length === 0) values.splice(s, 1);
    else values[s] = setIn(values[s], rest, newValue);
    return { arrayValue: { values } };
  }
  const fields = { ...mapFields(value) };
  if (newValue === DELETE && rest.length === 0) delete fields[s];
  else fields[s] = setIn(fields[s], rest, newValue);
  return { mapValue: { fields } };
}

/**
 * The PATCH that writes `newValue` (or DELETE) at `path` of a document whose fields are
 * `fields`: `{mask: [fieldPath], fields: body}`. The mask covers the map keys up to the first
 * array index; below an array the whole array field is rewritten.
 */
export function patchFor(fields, path, newValue) {
  let cut = path.findIndex((s) => typeof s === 'number');
  if (cut === -1) cut = path.length;
  else cut = Math.max(cut, 1); // an index is never first: top-level entries are field names
  const head = path.slice(0, cut);
  let v = cut === path.length ? newValue : setIn(valueAt(fields, head), path.slice(cut), newValue);
  // The body nests `v` under the head keys; a delete is an absent value under the mask.
  let body = {};
  if (v !== DELETE) {
    body = { [head[head.length - 1]]: v };
    for (let i = head.length - 2; i >= 0; i--) body = { [head[i]]: { mapValue: { fields: body } } };
  }
  return { mask: [fieldPath(head)], fields: body };
}

// ---------------------------------------------------------------------------------------
// Validation of REST values typed as JSON

/** Throws unless `v` is a well-formed REST value (recursively). */
export function checkValue(v, where = 'value') {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${where}: expected an object like {"stringValue": "x"}`);
  const keys = Object.keys(v);
  if (keys.length !== 1 || !KEYS[keys[0]]) throw new Error(`${where}: expected exactly one of ${Object.keys(KEYS).join(', ')}`);
  const t = KEYS[keys[0]];
  const x = v[keys[0]];
  const bad = (msg) => { throw new Error(`${where}: ${msg}`); };
  switch (t) {
    case 'string': if (typeof x !== 'string') bad('stringValue must be a string'); break;
    case 'int': parseInt64(String(x), where); break;
    case 'double': if (typeof x !== 'number' && !['NaN', 'Infinity', '-Infinity'].includes(x)) bad('doubleValue must be a number'); break;
    case 'boolean': if (typeof x !== 'boolean') bad('booleanValue must be true or false'); break;
    case 'null': if (x !== null && x !== 'NULL_VALUE') bad('nullValue must be null'); break;
    case 'timestamp': checkTimestamp(x, where); break;
    case 'geopoint': checkLatLng(x?.latitude ?? 0, x?.longitude ?? 0, where); break;
    case 'reference': if (typeof x !== 'string' || !DOCS_PREFIX.test(x)) bad('referenceValue must be projects/…/documents/…'); break;
    case 'bytes': checkBase64(x, where); break;
    case 'map': for (const [k, c] of Object.entries(x?.fields || {})) checkValue(c, `${where}.${k}`); break;
    case 'array':
      if (x?.values !== undefined && !Array.isArray(x.values)) bad('arrayValue.values must be an array');
      (x?.values || []).forEach((c, i) => { if (typeOf(c) === 'array') bad('arrays cannot contain arrays'); checkValue(c, `${where}[${i}]`); });
      break;
  }
}

/** "where: " before a message, or nothing when the editor already says which type it is. */
const at = (where) => (where ? `${where}: ` : '');

function parseInt64(s, where) {
  if (!/^-?\d+$/.test(s.trim())) throw new Error(`${at(where)}not an integer: ${s}`);
  const n = BigInt(s.trim());
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw new Error(`${at(where)}out of the 64-bit integer range`);
  return n.toString();
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function checkTimestamp(s, where) {
  if (typeof s !== 'string' || !TIMESTAMP.test(s.trim()) || isNaN(Date.parse(s.trim().replace(/(\.\d{3})\d+/, '$1')))) {
    throw new Error(`${at(where)}must look like 2026-12-04T10:00:00.123456Z`);
  }
}

function checkLatLng(lat, lng, where) {
  if (typeof lat !== 'number' || !(lat >= -90 && lat <= 90)) throw new Error(`${at(where)}latitude must be a number from -90 to 90`);
  if (typeof lng !== 'number' || !(lng >= -180 && lng <= 180)) throw new Error(`${at(where)}longitude must be a number from -180 to 180`);
}

function checkBase64(s, where) {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(s.replace(/\s/g, ''))) throw new Error(`${at(where)}not base64`);
}

// ---------------------------------------------------------------------------------------
// The field editor

/** A default value of a type (used when adding a field or switching type). */
function defaultOf(type) {
  switch (type) {
    case 'string': return { stringValue: '' };
    case 'int': return { integerValue: '0' };
    case 'double': return { doubleValue: 0 };
    case 'boolean': return { booleanValue: true };
    case 'null': return { nullValue: null };
    case 'timestamp': return { timestampValue: new Date().toISOString() };
    case 'geopoint': return { geoPointValue: { latitude: 0, longitude: 0 } };
    case 'reference': return { referenceValue: '' };
    case 'bytes': return { bytesValue: '' };
    case 'map': return { mapValue: { fields: {} } };
    case 'array': return { arrayValue: { values: [] } };
  }
  return { nullValue: null };
}

/** The editable text of a scalar value (kept when switching between text-like types). */
function textOf(v) {
  const t = typeOf(v);
  if (t === 'map') return JSON.stringify(mapFields(v), null, 2);
  if (t === 'array') return JSON.stringify(arrayValues(v), null, 2);
  return display(v);
}

// The datetime-local picker shows UTC to the second; the text box keeps the exact string
// (sub-second digits and offset included), and picking a new time keeps its fraction.
function timestampInputs(initial) {
  const text = el('input', { id: 'field-value-input', type: 'text', value: initial, spellcheck: 'false', class: 'mono',
    'aria-describedby': 'field-ts-help' });
  const picker = el('input', { id: 'field-value-datetime', type: 'datetime-local', step: '1' });
  const syncPicker = () => {
    const m = TIMESTAMP.exec(text.value.trim());
    if (!m) return;
    const d = new Date(m[1] + (m[3] === 'Z' ? 'Z' : m[3]));
    if (!isNaN(d)) picker.value = d.toISOString().slice(0, 19);
  };
  text.addEventListener('input', syncPicker);
  picker.addEventListener('change', () => {
    if (!picker.value) return;
    const m = TIMESTAMP.exec(text.value.trim());
    const frac = m?.[2] || '';
    const base = picker.value.length === 16 ? picker.value + ':00' : picker.value.slice(0, 19);
    text.value = `${base}${frac}Z`;
  });
  syncPicker();
  return el('div', { class: 'editor-inputs' },
    labelled('Timestamp (RFC 3339)', text),
    labelled('Pick (UTC)', picker),
    el('p', { id: 'field-ts-help', class: 'hint' }, 'Sub-second digits typed in the text box are kept when picking a time.'));
}

/**
 * Builds the inputs for `type` filled from `value`; returns {node, read()}. `reuse` is the
 * previous single-line text input: kept (same element, same text) for string, int, double
 * and reference, so switching the type doesn't replace the box being typed in.
 */
function inputsFor(type, value, carryText, reuse) {
  const same = typeOf(value) === type;
  const v = same ? value : defaultOf(type);
  let text = same ? textOf(v) : (carryText ?? textOf(v));
  switch (type) {
    case 'boolean': {
      const sel = el('select', { id: 'field-value-input' },
        el('option', { value: 'true' }, 'true'), el('option', { value: 'false' }, 'false'));
      sel.value = same ? String(v.booleanValue) : (text === 'false' ? 'false' : 'true');
      return { node: labelled('Value', sel), read: () => ({ booleanValue: sel.value === 'true' }) };
    }
    case 'null': {
      const inp = el('input', { id: 'field-value-input', type: 'text', value: 'null', disabled: true });
      return { node: labelled('Value', inp), read: () => ({ nullValue: null }) };
    }
    case 'geopoint': {
      const g = v.geoPointValue || {};
      const lat = el('input', { id: 'field-value-input', type: 'text', inputmode: 'decimal', value: String(g.latitude ?? 0) });
      const lng = el('input', { id: 'field-value-lng', type: 'text', inputmode: 'decimal', value: String(g.longitude ?? 0) });
      return {
        node: el('div', { class: 'editor-inputs' }, labelled('Latitude', lat), labelled('Longitude', lng)),
        read: () => {
          const la = Number(lat.value.trim()), lo = Number(lng.value.trim());
          if (lat.value.trim() === '' || lng.value.trim() === '') throw new Error('Latitude and longitude are required');
          checkLatLng(la, lo, '');
          return { geoPointValue: { latitude: la, longitude: lo } };
        },
      };
    }
    case 'timestamp': {
      if (!same && !TIMESTAMP.test(text.trim())) text = v.timestampValue;
      const node = timestampInputs(text);
      return { node, read: () => { const s = node.querySelector('#field-value-input').value.trim(); checkTimestamp(s, ''); return { timestampValue: s }; } };
    }
    case 'map':
    case 'array': {
      if (!same) text = textOf(v);
      const area = el('textarea', { id: 'field-value-input', rows: '6', class: 'mono', spellcheck: 'false', value: text });
      const hint = type === 'map'
        ? 'JSON object of REST values, e.g. {"name": {"stringValue": "x"}}'
        : 'JSON array of REST values, e.g. [{"integerValue": "1"}]';
      return {
        node: el('div', {}, labelled(type === 'map' ? 'Fields (JSON)' : 'Values (JSON)', area), el('p', { class: 'hint' }, hint)),
        read: () => {
          let parsed;
          try { parsed = JSON.parse(area.value || (type === 'map' ? '{}' : '[]')); } catch (e) { throw new Error(`Invalid JSON: ${e.message}`); }
          const r = type === 'map' ? { mapValue: { fields: parsed } } : { arrayValue: { values: parsed } };
          if (type === 'map' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) throw new Error('Expected a JSON object');
          if (type === 'array' && !Array.isArray(parsed)) throw new Error('Expected a JSON array');
          checkValue(r, type);
          return r;
        },
      };
    }
    default: {
      // string, int, double, reference, bytes: one text control.
      if (!same && (typeOf(value) === 'map' || typeOf(value) === 'array')) text = textOf(v);
      const multiline = type === 'bytes' || (type === 'string' && text.includes('\n'));
      const ctl = !multiline && reuse ? reuse : multiline
        ? el('textarea', { id: 'field-value-input', rows: '3', value: text, class: type === 'bytes' ? 'mono' : '' })
        : el('input', { id: 'field-value-input', type: 'text', value: text, spellcheck: type === 'string' ? 'true' : 'false',
          inputmode: type === 'int' || type === 'double' ? 'decimal' : null });
      if (ctl === reuse) {
        ctl.spellcheck = type === 'string';
        if (type === 'int' || type === 'double') ctl.inputMode = 'decimal'; else ctl.removeAttribute('inputmode');
      }
      const label = { string: 'Value', int: 'Integer', double: 'Number', reference: 'Document path (e.g. users/alice)', bytes: 'Bytes (base64)' }[type];
      return { node: labelled(label, ctl), read: () => readText(type, ctl.value) };
    }
  }
}

function readText(type, raw) {
  const s = raw.trim();
  switch (type) {
    case 'string': return { stringValue: raw };
    case 'int': return { integerValue: parseInt64(s, '') };
    case 'double': {
      if (['NaN', 'Infinity', '-Infinity'].includes(s)) return { doubleValue: s };
      const n = Number(s);
      if (s === '' || isNaN(n)) throw new Error(`Not a number: ${raw}`);
      if (!isFinite(n)) return { doubleValue: n > 0 ? 'Infinity' : '-Infinity' };
      return { doubleValue: n };
    }
    case 'reference': {
      const path = refPath(s).replace(/^\/+|\/+$/g, '');
      const segs = path.split('/');
      if (!path || segs.length % 2 !== 0 || segs.some((x) => x === '')) throw new Error('A reference is a document path: collection/doc[/collection/doc…]');
      return { referenceValue: path }; // completed with the project prefix by the caller
    }
    case 'bytes': { const b = s.replace(/\s/g, ''); checkBase64(b, ''); return { bytesValue: b }; }
  }
  throw new Error(`Unknown type ${type}`);
}

/**
 * A field editor form. Options: `value` (current REST value, or undefined for a new field),
 * `withName` (show a field-name input, id `field-name-input`), `namePlaceholder`,
 * `referencePrefix` (`projects/p/databases/(default)/documents/`), `onSave(name, value)`
 * (may be async; errors are shown by the caller's guard), `onCancel()`.
 */
export function fieldEditor({ value, withName = false, nameLabel = 'Field name', referencePrefix, onSave, onCancel }) {
  const initialType = value ? typeOf(value) : 'string';
  const typeSel = el('select', { id: 'field-type' }, TYPES.map(([k, label]) => el('option', { value: k }, label)));
  typeSel.value = initialType === 'unknown' ? 'string' : initialType;
  const nameInput = withName ? el('input', { id: 'field-name-input', type: 'text', required: true, spellcheck: 'false' }) : null;
  const slot = el('div', { class: 'editor-value' });
  const error = el('p', { class: 'editor-error', role: 'alert' });
  let current = inputsFor(typeSel.value, value);
  slot.append(current.node);

  typeSel.addEventListener('change', () => {
    // Carry the text over between text-like types (e.g. "12" from string to int).
    const old = slot.querySelector('#field-value-input');
    const carry = old && old.tagName !== 'SELECT' && !old.disabled ? old.value : undefined;
    const single = old && old.tagName === 'INPUT' && old.type === 'text' && !old.disabled && !slot.querySelector('#field-value-datetime, #field-value-lng');
    current = inputsFor(typeSel.value, value, carry, single ? old : null);
    slot.replaceChildren(current.node);
    error.textContent = '';
  });

  const form = el('form', { class: 'field-editor', 'aria-label': withName ? 'Add field' : 'Edit field' },
    nameInput ? labelled(nameLabel, nameInput) : null,
    labelled('Type', typeSel),
    slot,
    error,
    el('div', { class: 'actions' },
      el('button', { type: 'submit', id: 'field-save', class: 'primary' }, 'Save'),
      button('Cancel', () => onCancel?.(), { id: 'field-cancel' })));

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      const name = nameInput ? nameInput.value : null;
      if (nameInput && name === '') throw new Error('Field name is required');
      let v = current.read();
      if (v.referenceValue !== undefined) v = { referenceValue: referencePrefix + v.referenceValue };
      form.querySelector('#field-save').disabled = true;
      await onSave(name, v);
    } catch (err) {
      error.textContent = err.message;
      const save = form.querySelector('#field-save');
      if (save) save.disabled = false;
    }
  });
  form.addEventListener('keydown', (ev) => { if (ev.key === 'Escape') { ev.preventDefault(); onCancel?.(); } });
  form.focusFirst = () => (nameInput || slot.querySelector('input:not([disabled]),select,textarea') || typeSel).focus();
  return form;
}
