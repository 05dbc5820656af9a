// The Firestore view's collection filter as a structured query: what the form holds, the
// `StructuredQuery` it runs (Firestore REST v1 `runQuery`), and the cursor of its next page.
//
// A filter is `{field, op, type, text, sort}`: `field` a field path as typed (dots separate
// segments, backticks quote one), `op` one of OPERATORS or '' (no condition), `type` one of
// VALUE_TYPES, `text` the value as typed (one per line for the operators that take a list),
// `sort` '', 'asc' or 'desc' (ordered by `field`). No DOM here.

import { fieldPath, checkValue } from './values.js';

/** Operators in menu order: [op, REST FieldFilter operator, label, takes a list]. */
export const OPERATORS = [
  ['==', 'EQUAL', '(==) equal to', false],
  ['!=', 'NOT_EQUAL', '(!=) not equal to', false],
  ['<', 'LESS_THAN', '(<) less than', false],
  ['<=', 'LESS_THAN_OR_EQUAL', '(<=) less than or equal to', false],
  ['>', 'GREATER_THAN', '(>) greater than', false],
  ['>=', 'GREATER_THAN_OR_EQUAL', '(>=) greater than or equal to', false],
  ['array-contains', 'ARRAY_CONTAINS', '(array-contains) an array containing', false],
  ['in', 'IN', '(in) equal to any of', true],
  ['array-contains-any', 'ARRAY_CONTAINS_ANY', '(array-contains-any) an array containing any of', true],
  ['not-in', 'NOT_IN', '(not-in) equal to none of', true],
];
const BY_OP = new Map(OPERATORS.map((o) => [o[0], o]));

/** The value types a condition's text is read as. */
export const VALUE_TYPES = ['string', 'number', 'boolean', 'null', 'JSON'];

/** Whether `op` takes a list of values (one per line). */
export const takesList = (op) => !!BY_OP.get(op)?.[3];

/** Operators after which Firestore orders by the filtered field first (inequalities). */
const INEQUALITY = new Set(['!=', '<', '<=', '>', '>=', 'not-in']);

/**
 * The segments of a typed field path: `a.b` → ['a', 'b'], `` `a.b`.c `` → ['a.b', 'c'].
 * - Throws: an Error naming the problem (empty segment, unclosed backtick).
 */
export function parseFieldPath(text) {
  const s = text.trim();
  if (!s) throw new Error('Enter a field path, e.g. address.city');
  const segs = [];
  let cur = '', quoted = false, wasQuoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '\\' && i + 1 < s.length) cur += s[++i];
      else if (c === '`') quoted = false;
      else cur += c;
    } else if (c === '`') { quoted = true; wasQuoted = true; }
    else if (c === '.') {
      if (!cur && !wasQuoted) throw new Error(`Empty segment in field path "${s}"`);
      segs.push(cur); cur = ''; wasQuoted = false;
    } else cur += c;
  }
  if (quoted) throw new Error(`Unclosed backtick in field path "${s}"`);
  if (!cur && !wasQuoted) throw new Error(`Empty segment in field path "${s}"`);
  segs.push(cur);
  return segs;
}

/** A plain JSON value as a REST value: objects become maps, arrays arrays, numbers int or double. */
function restOf(js) {
  if (js === null) return { nullValue: null };
  switch (typeof js) {
    case 'boolean': return { booleanValue: js };
    case 'string': return { stringValue: js };
    case 'number': return Number.isInteger(js) ? { integerValue: String(js) } : { doubleValue: js };
  }
  if (Array.isArray(js)) return { arrayValue: { values: js.map(restOf) } };
  return { mapValue: { fields: Object.fromEntries(Object.entries(js).map(([k, v]) => [k, restOf(v)])) } };
}

const REST_KEYS = /^(string|integer|double|boolean|null|timestamp|geoPoint|reference|bytes|map|array)Value$/;

/**
 * One typed value: `text` read as `type`. JSON: plain JSON (`{"a": 1}` a map), or one REST
 * value (`{"timestampValue": "2026-01-01T00:00:00Z"}`) for the types JSON has no word for.
 * - Throws: an Error saying what `text` should look like.
 */
export function parseValue(type, text) {
  const s = text.trim();
  switch (type) {
    case 'string': return { stringValue: text };
    case 'number': {
      if (/^-?\d+$/.test(s)) {
        const n = BigInt(s);
        if (n <= 9223372036854775807n && n >= -9223372036854775808n) return { integerValue: n.toString() };
      }
      if (s === 'NaN') return { doubleValue: 'NaN' };
      const n = Number(s);
      if (s === '' || isNaN(n)) throw new Error(`Not a number: ${text}`);
      return { doubleValue: isFinite(n) ? n : (n > 0 ? 'Infinity' : '-Infinity') };
    }
    case 'boolean':
      if (s === 'true' || s === 'false') return { booleanValue: s === 'true' };
      throw new Error(`A boolean is true or false, not ${text}`);
    case 'null': return { nullValue: null };
    case 'JSON': {
      let js;
      try { js = JSON.parse(s); } catch (e) { throw new Error(`Invalid JSON: ${e.message}`); }
      if (js && typeof js === 'object' && !Array.isArray(js)) {
        const keys = Object.keys(js);
        if (keys.length === 1 && REST_KEYS.test(keys[0])) { checkValue(js); return js; }
      }
      return restOf(js);
    }
  }
  throw new Error(`Unknown value type ${type}`);
}

/** The values of a filter: one, or (list operators) one per non-empty line. */
function valuesOf(f) {
  if (!takesList(f.op)) return [parseValue(f.type, f.type === 'string' ? f.text : f.text.trim())];
  const lines = f.type === 'null' ? [''] : f.text.split('\n').filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error('Enter at least one value, one per line');
  if (lines.length > 30) throw new Error(`"${f.op}" takes at most 30 values`);
  return lines.map((l) => parseValue(f.type, l));
}

/**
 * The parts of the query a filter runs on collection `collectionId`: `{query, orderPaths}`.
 * `query` is a REST `StructuredQuery` without cursor and limit, ordered explicitly (the
 * filtered field first when sorted or after an inequality, then `__name__`), selecting only
 * the ordered field so a page stays small; `orderPaths` are the ordered fields' segments.
 * - Throws: an Error for a bad field path or value.
 * Source: Firestore REST v1 `StructuredQuery` (FieldFilter, UnaryFilter, Order, Cursor).
 */
export function structuredQuery(collectionId, f) {
  const segs = parseFieldPath(f.field);
  const field = { fieldPath: fieldPath(segs) };
  const q = { from: [{ collectionId }] };
  if (f.op) {
    const [, restOp, , list] = BY_OP.get(f.op) || [];
    if (!restOp) throw new Error(`Unknown operator ${f.op}`);
    const values = valuesOf(f);
    const only = values[0];
    // As the SDKs send them: == / != null and NaN are unary filters.
    if (!list && (f.op === '==' || f.op === '!=') && (only.nullValue !== undefined || only.doubleValue === 'NaN')) {
      const isNull = only.nullValue !== undefined;
      const op = f.op === '==' ? (isNull ? 'IS_NULL' : 'IS_NAN') : (isNull ? 'IS_NOT_NULL' : 'IS_NOT_NAN');
      q.where = { unaryFilter: { op, field } };
    } else {
      q.where = { fieldFilter: { field, op: restOp, value: list ? { arrayValue: { values } } : only } };
    }
  }
  const ordered = f.sort || INEQUALITY.has(f.op);
  const direction = f.sort === 'desc' ? 'DESCENDING' : 'ASCENDING';
  q.orderBy = [...(ordered ? [{ field, direction }] : []), { field: { fieldPath: '__name__' }, direction }];
  q.select = { fields: [ordered ? field : { fieldPath: '__name__' }] };
  return { query: q, orderPaths: ordered ? [segs] : [] };
}

/**
 * The cursor after `doc` (a REST Document) for a query ordered by `orderPaths` then `__name__`:
 * `{values, before: false}` (start after it).
 */
export function cursorAfter(doc, orderPaths) {
  const values = orderPaths.map((segs) => {
    let v = { mapValue: { fields: doc.fields || {} } };
    for (const s of segs) v = v?.mapValue?.fields?.[s];
    return v ?? { nullValue: null };
  });
  return { values: [...values, { referenceValue: doc.name }], before: false };
}

/** A filter in the SDKs' words: `where("n", ">", 2) · orderBy("n", "desc")`. */
export function describe(f) {
  const parts = [];
  if (f.op) {
    let shown;
    try { const v = valuesOf(f); shown = takesList(f.op) ? `[${v.map(short).join(', ')}]` : short(v[0]); } catch { shown = '?'; }
    parts.push(`where(${JSON.stringify(f.field.trim())}, "${f.op}", ${shown})`);
  }
  if (f.sort) parts.push(`orderBy(${JSON.stringify(f.field.trim())}, "${f.sort}")`);
  return parts.join(' · ');
}

function short(v) {
  if (v.stringValue !== undefined) return JSON.stringify(v.stringValue);
  if (v.integerValue !== undefined) return v.integerValue;
  if (v.doubleValue !== undefined) return String(v.doubleValue);
  if (v.booleanValue !== undefined) return String(v.booleanValue);
  if (v.nullValue !== undefined) return 'null';
  return JSON.stringify(v);
}
