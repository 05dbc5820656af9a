// Small assertion helpers shared by the cases.
import {
  Timestamp, GeoPoint, Bytes, DocumentReference,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore.js";
import * as lite from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore-lite.js";

// A string form of a Firestore value that tells NaN, -0, Infinity and the special types apart.
export function canon(v) {
  if (v === null) return "null";
  if (typeof v === "boolean") return `bool:${v}`;
  if (typeof v === "number") return `num:${Object.is(v, -0) ? "-0" : String(v)}`;
  if (typeof v === "string") return `str:${JSON.stringify(v)}`;
  if (v instanceof Timestamp || v instanceof lite.Timestamp) return `ts:${v.seconds}.${v.nanoseconds}`;
  if (v instanceof GeoPoint || v instanceof lite.GeoPoint) return `geo:${v.latitude},${v.longitude}`;
  if (v instanceof Bytes || v instanceof lite.Bytes) return `bytes:${v.toBase64()}`;
  if (v instanceof DocumentReference || v instanceof lite.DocumentReference) return `ref:${v.path}`;
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  if (typeof v === "object") {
    return `{${Object.keys(v).sort().map(k => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
  }
  return `?${typeof v}`;
}

export function eq(actual, expected, what = "value") {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${a}, want ${e}`);
}

/** `actual` equals one of `choices` (where servers may differ and both are right). */
export function oneOf(actual, choices, what = "value") {
  const a = JSON.stringify(actual);
  if (!choices.some(c => JSON.stringify(c) === a)) {
    throw new Error(`${what}: got ${a}, want one of ${choices.map(c => JSON.stringify(c)).join(" | ")}`);
  }
}

export function ok(cond, what) { if (!cond) throw new Error(what); }

export async function rejects(promise, code, what = "call") {
  try { await promise; } catch (e) {
    if (e.code === code) return;
    throw new Error(`${what}: failed with ${e.code || e}, want ${code}`);
  }
  throw new Error(`${what}: succeeded, want ${code}`);
}

export const sleep = ms => new Promise(r => setTimeout(r, ms));

// Waits until `events` (filled by a listener) has at least n entries, or throws after ms.
export async function waitFor(pred, ms = 10000, what = "condition") {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
