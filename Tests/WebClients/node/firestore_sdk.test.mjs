// The Firebase JS SDK (firebase 10.11.1, Node build: Firestore over gRPC with @grpc/grpc-js)
// against a Firestore emulator: value round-trips, queries and cursors, aggregations, listeners
// and their metadata, transactions and batches, field transforms, rules denials, terminate.
//
// Usage: FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 node --test firestore_sdk.test.mjs
//        (HEARTH_WC_PROJECT overrides the project, default demo-wc-sdk)
//
// The suite loads its own rules (everything open but denied/**, plus collection-group reads of mixed) through the emulator's
// PUT …:securityRules and clears the project's documents first. The expectations are what the
// official Cloud Firestore emulator answers; a case the emulator itself fails is marked so.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { clearDocuments, firestoreTarget, putRules, requireSdkOrSkip, waitFor } from './common.mjs';

const sdk = requireSdkOrSkip();
const { initializeApp, deleteApp } = sdk('firebase/app');
const fs = sdk('firebase/firestore');
const {
  getFirestore, connectFirestoreEmulator, terminate, doc, collection, collectionGroup,
  setDoc, getDoc, getDocs, addDoc, updateDoc, deleteDoc, query, where, orderBy, limit,
  limitToLast, startAt, startAfter, endAt, endBefore, documentId, and, or, onSnapshot,
  runTransaction, writeBatch, serverTimestamp, increment, arrayUnion, arrayRemove, deleteField,
  Timestamp, GeoPoint, Bytes, DocumentReference, getCountFromServer, getAggregateFromServer,
  count, sum, average, setLogLevel, disableNetwork, enableNetwork,
} = fs;

const PROJECT = process.env.HEARTH_WC_PROJECT || 'demo-wc-sdk';
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /{collection}/{document=**} { allow read, write: if collection != 'denied'; }
    match /{path=**}/mixed/{id} { allow read: if true; }
  }
}`;

let app;
let db;
let appCount = 0;

function newDb() {
  const { host, port } = firestoreTarget();
  const a = initializeApp({ projectId: PROJECT, apiKey: 'fake-api-key' }, `wc-${appCount++}`);
  const d = getFirestore(a);
  connectFirestoreEmulator(d, host, port);
  return { app: a, db: d };
}

before(async () => {
  setLogLevel('silent');
  await putRules(PROJECT, RULES);
  await clearDocuments(PROJECT);
  ({ app, db } = newDb());
});

after(async () => {
  await terminate(db);
  await deleteApp(app);
});

/** Writes `value` under field v of a fresh document and reads it back from the server. */
async function roundTrip(id, value) {
  const ref = doc(db, 'values', id);
  await setDoc(ref, { v: value });
  const snap = await getDoc(ref);
  assert.equal(snap.metadata.fromCache, false);
  return snap.get('v');
}

/** Ids of a query's documents, in order. */
async function ids(q) {
  return (await getDocs(q)).docs.map((d) => d.id);
}

// ------------------------------------------------------------------------ values

test('values: null, booleans, integers, doubles, strings', async () => {
  const value = {
    n: null, t: true, f: false, zero: 0, int: 42, neg: -7, maxSafe: Number.MAX_SAFE_INTEGER,
    minSafe: Number.MIN_SAFE_INTEGER, dbl: 1.5, tiny: 5e-324, big: 1.7976931348623157e308,
    empty: '', text: 'hello', unicode: 'é\u0301 日本 🔥 \u0000 nul',
  };
  assert.deepEqual(await roundTrip('scalars', value), value);
});

test('values: NaN, Infinity, -Infinity', async () => {
  const got = await roundTrip('special', { nan: NaN, inf: Infinity, ninf: -Infinity });
  assert.ok(Number.isNaN(got.nan));
  assert.equal(got.inf, Infinity);
  assert.equal(got.ninf, -Infinity);
});

test('values: -0.0 keeps its sign', async () => {
  // The SDK sends -0 as doubleValue -0.0 (its safe-integer test excludes negative zero).
  const got = await roundTrip('negzero', -0);
  assert.equal(typeof got, 'number');
  assert.ok(Object.is(got, -0), `expected -0, got ${Object.is(got, 0) ? '+0' : got}`);
});

test('values: -0.0 and 0.0 are equal in queries', async () => {
  await setDoc(doc(db, 'zeros', 'neg'), { v: -0 });
  await setDoc(doc(db, 'zeros', 'pos'), { v: 0 });
  await setDoc(doc(db, 'zeros', 'posd'), { v: 0.5 });
  assert.deepEqual(await ids(query(collection(db, 'zeros'), where('v', '==', 0))), ['neg', 'pos']);
  assert.deepEqual(await ids(query(collection(db, 'zeros'), where('v', '==', -0))), ['neg', 'pos']);
});

test('values: -0.0 in in, array-contains and array transforms (what the SDK shows)', async () => {
  // Both servers answer in [-0.0] / in [0] with both documents (-0.0 equals 0, as for ==).
  // The SDK's view then re-applies the filter locally: for in, not-in and array-contains its
  // value equality tells -0.0 from 0 (and integer 0 from 0.0), so it drops the other one; ==
  // and ranges compare numerically and keep both. arrayUnion / arrayRemove run on the server,
  // which treats -0.0 and 0 as equal.
  const c = collection(db, 'zeros2');
  await setDoc(doc(c, 'neg'), { v: -0, arr: [-0] });
  await setDoc(doc(c, 'pos'), { v: 0, arr: [0] });
  assert.deepEqual(await ids(query(c, where('v', 'in', [-0]))), ['neg']);
  assert.deepEqual(await ids(query(c, where('v', 'in', [0]))), ['pos']);
  assert.deepEqual(await ids(query(c, where('v', 'not-in', [0]))), []);
  assert.deepEqual(await ids(query(c, where('v', '!=', -0))), []);
  assert.deepEqual(await ids(query(c, where('arr', 'array-contains', 0))), ['pos']);
  assert.deepEqual(await ids(query(c, where('arr', 'array-contains', -0))), ['neg']);
  assert.deepEqual(await ids(query(c, orderBy('v'), orderBy(documentId(), 'desc'))), ['pos', 'neg']);
  await updateDoc(doc(c, 'neg'), { arr: arrayUnion(0) });
  const arr = (await getDoc(doc(c, 'neg'))).get('arr');
  assert.equal(arr.length, 1);
  assert.ok(Object.is(arr[0], -0));
  await updateDoc(doc(c, 'neg'), { arr: arrayRemove(0) });
  assert.deepEqual((await getDoc(doc(c, 'neg'))).get('arr'), []);
  await updateDoc(doc(c, 'pos'), { w: increment(-0) });
  assert.ok(Object.is((await getDoc(doc(c, 'pos'))).get('w'), -0));
});

test('values: bytes', async () => {
  const raw = new Uint8Array([0, 1, 2, 127, 128, 254, 255]);
  const got = await roundTrip('bytes', Bytes.fromUint8Array(raw));
  assert.ok(got instanceof Bytes);
  assert.deepEqual([...got.toUint8Array()], [...raw]);
  const empty = await roundTrip('bytes-empty', Bytes.fromUint8Array(new Uint8Array()));
  assert.equal(empty.toUint8Array().length, 0);
});

test('values: timestamps keep microseconds, drop nanoseconds', async () => {
  const got = await roundTrip('ts', {
    a: new Timestamp(1700000000, 123456789),
    epoch: new Timestamp(0, 0),
    old: new Timestamp(-62135596800, 0), // 0001-01-01T00:00:00Z
    date: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 250)),
  });
  assert.ok(got.a instanceof Timestamp);
  assert.equal(got.a.seconds, 1700000000);
  assert.equal(got.a.nanoseconds, 123456000);
  assert.equal(got.epoch.toMillis(), 0);
  assert.equal(got.old.seconds, -62135596800);
  assert.equal(got.date.toMillis(), Date.UTC(2024, 1, 29, 12, 0, 0, 250));
});

test('values: geopoints', async () => {
  const got = await roundTrip('geo', [new GeoPoint(51.5, -0.12), new GeoPoint(-90, 180)]);
  assert.ok(got[0] instanceof GeoPoint);
  assert.ok(got[0].isEqual(new GeoPoint(51.5, -0.12)));
  assert.ok(got[1].isEqual(new GeoPoint(-90, 180)));
});

test('values: references', async () => {
  const target = doc(db, 'some', 'doc', 'sub', 'x y');
  const got = await roundTrip('ref', target);
  assert.ok(got instanceof DocumentReference);
  assert.equal(got.path, 'some/doc/sub/x y');
  assert.ok(got.firestore === db);
});

test('values: arrays and maps, nested and empty', async () => {
  const value = {
    arr: [1, 'two', null, { m: [true, false] }, { inner: [3, 4] }],
    empties: { a: [], m: {} },
    deep: { a: { b: { c: { d: { e: 'deep' } } } } },
    'odd key.with dots': { 'späce ✓': 1, '`tick`': 2 },
  };
  assert.deepEqual(await roundTrip('nested', value), value);
});

// ------------------------------------------------------------------------ queries

async function seedNumbers() {
  const batch = writeBatch(db);
  const rows = [
    ['a', 1, 'red', ['x', 'y']], ['b', 2, 'blue', ['y']], ['c', 3, 'red', []],
    ['d', 4, 'green', ['z']], ['e', 5, 'blue', ['x', 'z']], ['f', 5, 'red', ['x']],
  ];
  for (const [id, n, color, tags] of rows) batch.set(doc(db, 'nums', id), { n, color, tags });
  await batch.commit();
  return collection(db, 'nums');
}

test('queries: comparison filters', async () => {
  const c = await seedNumbers();
  assert.deepEqual(await ids(query(c, where('n', '==', 5))), ['e', 'f']);
  assert.deepEqual(await ids(query(c, where('n', '!=', 5))), ['a', 'b', 'c', 'd']);
  assert.deepEqual(await ids(query(c, where('n', '<', 3))), ['a', 'b']);
  assert.deepEqual(await ids(query(c, where('n', '<=', 3))), ['a', 'b', 'c']);
  assert.deepEqual(await ids(query(c, where('n', '>', 4))), ['e', 'f']);
  assert.deepEqual(await ids(query(c, where('n', '>=', 4))), ['d', 'e', 'f']);
  assert.deepEqual(await ids(query(c, where('color', '==', 'red'), where('n', '>', 1))), ['c', 'f']);
});

test('queries: in, not-in, array-contains, array-contains-any', async () => {
  const c = await seedNumbers();
  assert.deepEqual(await ids(query(c, where('color', 'in', ['green', 'blue']))), ['b', 'd', 'e']);
  assert.deepEqual(await ids(query(c, where('color', 'not-in', ['red', 'blue']))), ['d']);
  assert.deepEqual(await ids(query(c, where('tags', 'array-contains', 'x'))), ['a', 'e', 'f']);
  assert.deepEqual(await ids(query(c, where('tags', 'array-contains-any', ['y', 'z']))), ['a', 'b', 'd', 'e']);
  assert.deepEqual(await ids(query(c, where(documentId(), 'in', ['c', 'a', 'zz']))), ['a', 'c']);
});

test('queries: or / and composite filters', async () => {
  const c = await seedNumbers();
  assert.deepEqual(await ids(query(c, or(where('n', '==', 1), where('color', '==', 'green')))), ['a', 'd']);
  assert.deepEqual(
    await ids(query(c, and(where('color', '==', 'red'), or(where('n', '<', 2), where('n', '>', 4))))),
    ['a', 'f']);
});

test('queries: orderBy, limit, limitToLast', async () => {
  const c = await seedNumbers();
  assert.deepEqual(await ids(query(c, orderBy('n', 'desc'), limit(3))), ['f', 'e', 'd']);
  assert.deepEqual(await ids(query(c, orderBy('n'), orderBy(documentId(), 'desc'))), ['a', 'b', 'c', 'd', 'f', 'e']);
  assert.deepEqual(await ids(query(c, orderBy('n'), limitToLast(2))), ['e', 'f']);
  assert.deepEqual(await ids(query(c, orderBy('color'), orderBy('n', 'desc'), limit(4))), ['e', 'b', 'd', 'f']);
});

test('queries: cursors by value and by snapshot', async () => {
  const c = await seedNumbers();
  const byN = query(c, orderBy('n'));
  assert.deepEqual(await ids(query(byN, startAt(3))), ['c', 'd', 'e', 'f']);
  assert.deepEqual(await ids(query(byN, startAfter(3))), ['d', 'e', 'f']);
  assert.deepEqual(await ids(query(byN, endAt(2))), ['a', 'b']);
  assert.deepEqual(await ids(query(byN, endBefore(2))), ['a']);
  assert.deepEqual(await ids(query(byN, startAfter(1), endBefore(5))), ['b', 'c', 'd']);
  const e = await getDoc(doc(db, 'nums', 'e'));
  // A snapshot cursor adds the document id: (5, 'e') — 'f' sorts after it.
  assert.deepEqual(await ids(query(byN, startAfter(e))), ['f']);
  assert.deepEqual(await ids(query(byN, startAt(e))), ['e', 'f']);
  assert.deepEqual(await ids(query(byN, endBefore(e))), ['a', 'b', 'c', 'd']);
  assert.deepEqual(await ids(query(c, orderBy('n', 'desc'), startAfter(e), limit(2))), ['d', 'c']);
});

test('queries: collection group and mixed-type ordering', async () => {
  const values = [
    ['a-null', null], ['b-bool', true], ['c-nan', NaN], ['d-num', -1], ['e-num', 2.5],
    ['f-ts', new Timestamp(10, 0)], ['g-str', 'abc'], ['h-bytes', Bytes.fromUint8Array(new Uint8Array([1]))],
    ['i-ref', doc(db, 'x', 'y')], ['j-geo', new GeoPoint(1, 1)], ['k-arr', [1]], ['l-map', { a: 1 }],
  ];
  const batch = writeBatch(db);
  values.forEach(([id, v], i) => batch.set(doc(db, `groups/g${i % 3}/mixed`, id), { v }));
  batch.set(doc(db, 'mixed', 'top'), { v: 'top-level' });
  batch.set(doc(db, 'groups/g0/other', 'no'), { v: 1 });
  await batch.commit();
  const all = await ids(query(collectionGroup(db, 'mixed'), orderBy('v')));
  const expected = values.map(([id]) => id);
  expected.splice(expected.indexOf('g-str') + 1, 0, 'top');
  assert.deepEqual(all, expected);
  assert.deepEqual(await ids(query(collectionGroup(db, 'mixed'), where('v', '>', 0), where('v', '<', 100))), ['e-num']);
});

test('queries: null and NaN filters, missing fields', async () => {
  const c = collection(db, 'nulls');
  await setDoc(doc(c, 'n'), { v: null, w: NaN, s: 'a' });
  await setDoc(doc(c, 'x'), { v: 1, w: 1, s: 'b' });
  await setDoc(doc(c, 'm'), { s: 'c' });
  assert.deepEqual(await ids(query(c, where('v', '==', null))), ['n']);
  assert.deepEqual(await ids(query(c, where('v', '!=', null))), ['x']);
  assert.deepEqual(await ids(query(c, where('w', '==', NaN))), ['n']);
  assert.deepEqual(await ids(query(c, where('w', '!=', NaN))), ['x']);
  assert.deepEqual(await ids(query(c, where('v', 'in', [null, 1]))), ['x']);
  assert.deepEqual(await ids(query(c, where('v', 'not-in', [1]))), []);
  assert.deepEqual(await ids(query(c, where('v', '>', null))), []);
  assert.deepEqual(await ids(query(c, orderBy('v'))), ['n', 'x']);
  assert.deepEqual(await ids(query(c, where('v', '>', 0), where('s', '<', 'z'))), ['x']);
  const thirty = Array.from({ length: 30 }, (_, i) => (i ? `v${i}` : 'a'));
  assert.deepEqual(await ids(query(c, where('s', 'in', thirty))), ['n']);
});

test('queries: paging with startAfter through 25 documents', async () => {
  const c = collection(db, 'pages');
  const batch = writeBatch(db);
  for (let i = 0; i < 25; i++) batch.set(doc(c, `p${String(i).padStart(2, '0')}`), { i, even: i % 2 === 0 });
  await batch.commit();
  const seen = [];
  let q = query(c, where('even', '==', true), orderBy('i', 'desc'), limit(5));
  for (;;) {
    const page = await getDocs(q);
    seen.push(page.docs.map((d) => d.get('i')));
    if (page.size < 5) break;
    q = query(c, where('even', '==', true), orderBy('i', 'desc'), startAfter(page.docs.at(-1)), limit(5));
  }
  assert.deepEqual(seen, [[24, 22, 20, 18, 16], [14, 12, 10, 8, 6], [4, 2, 0]]);
});

// ------------------------------------------------------------------------ aggregations

test('aggregations: count, sum, average', async () => {
  const c = await seedNumbers();
  assert.equal((await getCountFromServer(c)).data().count, 6);
  assert.equal((await getCountFromServer(query(c, where('color', '==', 'red')))).data().count, 3);
  assert.equal((await getCountFromServer(query(c, where('n', '>', 100)))).data().count, 0);
  const agg = await getAggregateFromServer(query(c, where('color', '==', 'red')), {
    total: sum('n'), mean: average('n'), how: count(),
  });
  assert.deepEqual(agg.data(), { total: 9, mean: 3, how: 3 });
  const none = await getAggregateFromServer(query(c, where('n', '>', 100)), { s: sum('n'), a: average('n') });
  assert.deepEqual(none.data(), { s: 0, a: null });
  const limited = await getCountFromServer(query(c, orderBy('n'), limit(4)));
  assert.equal(limited.data().count, 4);
});

test('aggregations: a field aggregation drops documents lacking the field, count included', async () => {
  const c = collection(db, 'mixedagg');
  await setDoc(doc(c, 'none'), { s: 'c' });
  await setDoc(doc(c, 'str'), { num: 'text' });
  await setDoc(doc(c, 'i'), { num: 2 });
  await setDoc(doc(c, 'd'), { num: 3.5 });
  assert.equal((await getCountFromServer(c)).data().count, 4);
  const agg = await getAggregateFromServer(c, { s: sum('num'), a: average('num'), k: count() });
  assert.deepEqual(agg.data(), { s: 5.5, a: 2.75, k: 3 });
  const big = collection(db, 'bigagg');
  await setDoc(doc(big, 'a'), { n: Number.MAX_SAFE_INTEGER });
  await setDoc(doc(big, 'b'), { n: Number.MAX_SAFE_INTEGER });
  assert.equal((await getAggregateFromServer(big, { s: sum('n') })).data().s, 2 * Number.MAX_SAFE_INTEGER);
});

// ------------------------------------------------------------------------ listeners

/** A compact record of one snapshot (document listener). */
function docEvent(snap) {
  return {
    exists: snap.exists(), data: snap.data() ?? null,
    fromCache: snap.metadata.fromCache, pending: snap.metadata.hasPendingWrites,
  };
}

test('onSnapshot: document, with metadata changes', async () => {
  const ref = doc(db, 'listen', 'one');
  const events = [];
  const stop = onSnapshot(ref, { includeMetadataChanges: true }, (s) => events.push(docEvent(s)));
  await waitFor(() => events.some((e) => !e.fromCache), 10000, 'first server snapshot');
  await setDoc(ref, { n: 1 });
  await waitFor(() => events.length >= 3 && !events.at(-1).pending, 10000, 'acknowledged set');
  await updateDoc(doc(db, 'listen', 'one'), { n: 2 });
  await waitFor(() => events.at(-1).data?.n === 2 && !events.at(-1).pending, 10000, 'acknowledged update');
  await deleteDoc(ref);
  await waitFor(() => !events.at(-1).exists && !events.at(-1).pending, 10000, 'acknowledged delete');
  stop();
  // The official emulator's sequence: the first snapshot comes from the server (memory cache
  // holds nothing); each local write raises a pending snapshot, then its acknowledgement.
  assert.deepEqual(events, [
    { exists: false, data: null, fromCache: false, pending: false },
    { exists: true, data: { n: 1 }, fromCache: false, pending: true },
    { exists: true, data: { n: 1 }, fromCache: false, pending: false },
    { exists: true, data: { n: 2 }, fromCache: false, pending: true },
    { exists: true, data: { n: 2 }, fromCache: false, pending: false },
    { exists: false, data: null, fromCache: false, pending: false },
  ]);
});

test('onSnapshot: a pending serverTimestamp is null, estimated, then the server\'s', async () => {
  const ref = doc(db, 'listen', 'stamp');
  const events = [];
  const stop = onSnapshot(ref, { includeMetadataChanges: true }, (s) => events.push(s.exists() ? {
    pending: s.metadata.hasPendingWrites, raw: s.get('t'), estimate: s.get('t', { serverTimestamps: 'estimate' }),
  } : null));
  await waitFor(() => events.length >= 1, 10000, 'first snapshot');
  await setDoc(ref, { t: serverTimestamp() });
  await waitFor(() => events.at(-1)?.pending === false, 10000, 'acknowledged');
  stop();
  assert.equal(events.length, 3);
  assert.equal(events[0], null);
  assert.equal(events[1].pending, true);
  assert.equal(events[1].raw, null);
  assert.ok(events[1].estimate instanceof Timestamp);
  assert.ok(events[2].raw instanceof Timestamp);
  assert.ok(Math.abs(events[2].raw.toMillis() - events[1].estimate.toMillis()) < 10000);
});

test('onSnapshot: query changes from another client', async (t) => {
  const other = newDb();
  const c = collection(db, 'feed');
  await setDoc(doc(c, 'a'), { n: 1 });
  const events = [];
  const q = query(c, where('n', '>', 0), orderBy('n'));
  const stop = onSnapshot(q, { includeMetadataChanges: true }, (s) => events.push({
    ids: s.docs.map((d) => d.id),
    changes: s.docChanges({ includeMetadataChanges: true }).map((ch) => `${ch.type}:${ch.doc.id}`),
    fromCache: s.metadata.fromCache, pending: s.metadata.hasPendingWrites,
  }));
  try {
    await waitFor(() => events.length >= 1, 10000, 'initial snapshot');
    const oc = collection(other.db, 'feed');
    await setDoc(doc(oc, 'b'), { n: 2 });
    await waitFor(() => events.at(-1).ids.includes('b'), 10000, 'remote add');
    await updateDoc(doc(oc, 'a'), { n: 3 });
    await waitFor(() => events.at(-1).ids[0] === 'b', 10000, 'remote modify');
    await updateDoc(doc(oc, 'b'), { n: -1 });
    await waitFor(() => !events.at(-1).ids.includes('b'), 10000, 'remote remove');
    await deleteDoc(doc(oc, 'a'));
    await waitFor(() => events.at(-1).ids.length === 0, 10000, 'remote delete');
  } finally {
    stop();
    await terminate(other.db);
    await deleteApp(other.app);
  }
  // Removal by delete: the official emulator resets the query target (RESET, then CURRENT with
  // no documents), so the SDK holds 'a' in limbo, raises a fromCache snapshot and resolves it
  // with a document listen; a server that sends documentDelete straight away (Hearth does)
  // skips that snapshot. Both end in the same state; the case accepts either and says which.
  const limbo = { ids: ['a'], changes: [], fromCache: true, pending: false };
  if (!(events.length === 7 && JSON.stringify(events[5]) === JSON.stringify(limbo))) {
    events.splice(5, 0, limbo);
    t.diagnostic('delete reached the listener as documentDelete (no limbo snapshot)');
  }
  assert.deepEqual(events, [
    { ids: ['a'], changes: ['added:a'], fromCache: false, pending: false },
    { ids: ['a', 'b'], changes: ['added:b'], fromCache: false, pending: false },
    { ids: ['b', 'a'], changes: ['modified:a'], fromCache: false, pending: false },
    // A document leaving the query by update arrives as documentRemove; the SDK cannot tell a
    // delete from a non-match, holds it in limbo (a fromCache snapshot) and listens to it.
    { ids: ['b', 'a'], changes: [], fromCache: true, pending: false },
    { ids: ['a'], changes: ['removed:b'], fromCache: false, pending: false },
    limbo,
    { ids: [], changes: ['removed:a'], fromCache: false, pending: false },
  ]);
});

test('onSnapshot: a local write on a listened query', async () => {
  const c = collection(db, 'local');
  const events = [];
  const stop = onSnapshot(query(c, orderBy('n')), { includeMetadataChanges: true }, (s) => events.push({
    ids: s.docs.map((d) => d.id),
    changes: s.docChanges({ includeMetadataChanges: true }).map((ch) => `${ch.type}:${ch.doc.id}`),
    fromCache: s.metadata.fromCache, pending: s.metadata.hasPendingWrites,
  }));
  await waitFor(() => events.some((e) => !e.fromCache), 10000, 'initial snapshot');
  await setDoc(doc(c, 'x'), { n: 1 });
  await waitFor(() => events.length >= 3 && !events.at(-1).pending, 10000, 'acknowledged');
  stop();
  assert.deepEqual(events, [
    { ids: [], changes: [], fromCache: false, pending: false },
    { ids: ['x'], changes: ['added:x'], fromCache: false, pending: true },
    { ids: ['x'], changes: ['modified:x'], fromCache: false, pending: false },
  ]);
});

/** A compact record of a query snapshot: ids, '*' when fromCache, [changes]. */
function brief(s) {
  return s.docs.map((d) => d.id).join('') + (s.metadata.fromCache ? '*' : '') +
    `[${s.docChanges().map((x) => x.type[0] + x.doc.id).join(' ')}]`;
}

test('onSnapshot: a limit query refills when a document leaves', async (t) => {
  const other = newDb();
  const c = collection(db, 'limited');
  for (const [id, v] of [['a', 1], ['b', 2], ['c', 3]]) await setDoc(doc(c, id), { v });
  const events = [];
  const stop = onSnapshot(query(c, orderBy('v'), limit(2)), { includeMetadataChanges: true },
    (s) => events.push(brief(s)));
  const last = () => events.at(-1);
  try {
    await waitFor(() => last() === 'ab[aa ab]', 10000, 'initial');
    await deleteDoc(doc(other.db, 'limited', 'a'));
    await waitFor(() => last() === 'bc[ra ac]', 10000, 'refill after delete');
    await setDoc(doc(other.db, 'limited', 'z'), { v: 0 });
    await waitFor(() => last() === 'zb[rc az]', 10000, 'a new first');
    await updateDoc(doc(other.db, 'limited', 'z'), { v: 10 });
    await waitFor(() => last() === 'bc[rz ac]', 10000, 'it leaves by update');
  } finally {
    stop();
    await terminate(other.db);
    await deleteApp(other.app);
  }
  // The official emulator: 'ab*[]' (target reset on the delete) before the refill; a server
  // that sends documentDelete skips it. The update that pushes z out: always 'zb*[]' (limbo).
  const official = ['ab[aa ab]', 'ab*[]', 'bc[ra ac]', 'zb[rc az]', 'zb*[]', 'bc[rz ac]'];
  if (events[1] !== 'ab*[]') {
    t.diagnostic('delete reached the limit listener as documentDelete (no limbo snapshot)');
    official.splice(1, 1);
  }
  assert.deepEqual(events, official);
});

test('onSnapshot: a listener catches up after disableNetwork / enableNetwork', async (t) => {
  const other = newDb();
  const c = collection(db, 'resume');
  await setDoc(doc(c, 'a'), { v: 1 });
  const events = [];
  const stop = onSnapshot(c, { includeMetadataChanges: true }, (s) => events.push(brief(s)));
  try {
    await waitFor(() => events.at(-1) === 'a[aa]', 10000, 'initial');
    await disableNetwork(db);
    await waitFor(() => events.at(-1) === 'a*[]', 10000, 'offline snapshot');
    await setDoc(doc(other.db, 'resume', 'b'), { v: 2 });
    await deleteDoc(doc(other.db, 'resume', 'a'));
    await enableNetwork(db);
    await waitFor(() => events.at(-1) === 'b[ra]' || events.at(-1) === 'b[ra ab]', 10000, 'caught up');
  } finally {
    stop();
    await terminate(other.db);
    await deleteApp(other.app);
  }
  // The official emulator answers the resumed listen with the whole result (b added, a held in
  // limbo: 'ab*[ab]'), then resolves a; a server that sends the changes since the resume token
  // (b added, a deleted) gives one snapshot 'b[ra ab]'.
  if (events.length === 3) {
    t.diagnostic('resumed as one delta snapshot');
    assert.deepEqual(events, ['a[aa]', 'a*[]', 'b[ra ab]']);
  } else {
    assert.deepEqual(events, ['a[aa]', 'a*[]', 'ab*[ab]', 'b[ra]']);
  }
});

// ------------------------------------------------------------------------ transactions and batches

test('transactions: read-modify-write, contention retried', async () => {
  const ref = doc(db, 'counters', 'c');
  await setDoc(ref, { n: 0 });
  const other = newDb();
  try {
    const bump = (d) => runTransaction(d, async (tx) => {
      const snap = await tx.get(doc(d, 'counters', 'c'));
      tx.update(doc(d, 'counters', 'c'), { n: snap.get('n') + 1 });
      return snap.get('n');
    });
    const results = await Promise.all([bump(db), bump(other.db), bump(db), bump(other.db)]);
    assert.equal(results.length, 4);
    assert.equal((await getDoc(ref)).get('n'), 4);
  } finally {
    await terminate(other.db);
    await deleteApp(other.app);
  }
});

test('transactions: a write from outside between read and commit makes it retry', async () => {
  const other = newDb();
  try {
    await setDoc(doc(db, 'retry', 'a'), { v: 1 });
    let attempts = 0;
    const seen = await runTransaction(db, async (tx) => {
      attempts++;
      const snap = await tx.get(doc(db, 'retry', 'a'));
      if (attempts === 1) await setDoc(doc(other.db, 'retry', 'a'), { v: 100 }); // not blocked
      tx.update(doc(db, 'retry', 'a'), { v: snap.get('v') + 1 });
      return snap.get('v');
    });
    assert.equal(attempts, 2);
    assert.equal(seen, 100);
    assert.equal((await getDoc(doc(db, 'retry', 'a'))).get('v'), 101);
    attempts = 0; // the same when the document read was missing
    await runTransaction(db, async (tx) => {
      attempts++;
      const snap = await tx.get(doc(db, 'retry', 'm'));
      if (attempts === 1) await setDoc(doc(other.db, 'retry', 'm'), { v: 5 });
      tx.set(doc(db, 'retry', 'm'), { v: (snap.exists() ? snap.get('v') : 0) + 1 });
    });
    assert.equal(attempts, 2);
    assert.equal((await getDoc(doc(db, 'retry', 'm'))).get('v'), 6);
  } finally {
    await terminate(other.db);
    await deleteApp(other.app);
  }
});

test('transactions: a throwing update function writes nothing', async () => {
  const ref = doc(db, 'counters', 'untouched');
  await setDoc(ref, { n: 1 });
  await assert.rejects(runTransaction(db, async (tx) => {
    await tx.get(ref);
    tx.set(ref, { n: 99 });
    tx.set(doc(db, 'counters', 'new'), { n: 1 });
    throw new Error('abandon');
  }), /abandon/);
  assert.equal((await getDoc(ref)).get('n'), 1);
  assert.equal((await getDoc(doc(db, 'counters', 'new'))).exists(), false);
  // A transaction reading a missing document may create it.
  await runTransaction(db, async (tx) => {
    const snap = await tx.get(doc(db, 'counters', 'fresh'));
    assert.equal(snap.exists(), false);
    tx.set(doc(db, 'counters', 'fresh'), { n: 1 });
  });
  assert.equal((await getDoc(doc(db, 'counters', 'fresh'))).get('n'), 1);
});

test('batches: atomic, a failing update writes nothing', async () => {
  await setDoc(doc(db, 'batch', 'keep'), { n: 1 });
  const ok = writeBatch(db);
  ok.set(doc(db, 'batch', 'a'), { n: 1 });
  ok.update(doc(db, 'batch', 'keep'), { n: 2 });
  ok.delete(doc(db, 'batch', 'nothing'));
  await ok.commit();
  assert.deepEqual(await ids(collection(db, 'batch')), ['a', 'keep']);
  const bad = writeBatch(db);
  bad.set(doc(db, 'batch', 'b'), { n: 1 });
  bad.update(doc(db, 'batch', 'missing'), { n: 1 });
  await assert.rejects(bad.commit(), (e) => e.code === 'not-found');
  assert.deepEqual(await ids(collection(db, 'batch')), ['a', 'keep']);
  assert.equal((await getDoc(doc(db, 'batch', 'keep'))).get('n'), 2);
});

// ------------------------------------------------------------------------ transforms and merges

test('transforms: serverTimestamp, increment, arrayUnion, arrayRemove, deleteField', async () => {
  const ref = doc(db, 'transforms', 't');
  const before = Date.now();
  await setDoc(ref, { at: serverTimestamp(), n: increment(2), d: 1, tags: ['a', 'b'], gone: 1, keep: 1 });
  let s = (await getDoc(ref)).data();
  assert.ok(s.at instanceof Timestamp);
  assert.ok(Math.abs(s.at.toMillis() - before) < 60000);
  assert.equal(s.n, 2);
  await updateDoc(ref, {
    n: increment(3), d: increment(0.5), tags: arrayUnion('b', 'c', 'c'), gone: deleteField(),
    missing: increment(1), fresh: arrayRemove('x'),
  });
  s = (await getDoc(ref)).data();
  assert.deepEqual({ ...s, at: undefined }, {
    at: undefined, n: 5, d: 1.5, tags: ['a', 'b', 'c'], keep: 1, missing: 1, fresh: [],
  });
  await updateDoc(ref, { tags: arrayRemove('a', 'c'), n: increment(-5.5) });
  s = (await getDoc(ref)).data();
  assert.deepEqual(s.tags, ['b']);
  assert.equal(s.n, -0.5);
});

test('merges: set with merge and mergeFields, nested update paths', async () => {
  const ref = doc(db, 'merge', 'm');
  await setDoc(ref, { a: 1, nested: { x: 1, y: 2 }, z: 0 });
  await setDoc(ref, { b: 2, nested: { y: 3 } }, { merge: true });
  assert.deepEqual((await getDoc(ref)).data(), { a: 1, b: 2, nested: { x: 1, y: 3 }, z: 0 });
  await setDoc(ref, { a: 10, b: 20, nested: { x: 10 } }, { mergeFields: ['a', 'nested.x'] });
  assert.deepEqual((await getDoc(ref)).data(), { a: 10, b: 2, nested: { x: 10, y: 3 }, z: 0 });
  await updateDoc(ref, 'nested.y', deleteField(), 'nested.w', 'new');
  assert.deepEqual((await getDoc(ref)).data(), { a: 10, b: 2, nested: { x: 10, w: 'new' }, z: 0 });
  await assert.rejects(updateDoc(doc(db, 'merge', 'none'), { a: 1 }), (e) => e.code === 'not-found');
  const added = await addDoc(collection(db, 'merge'), { auto: true });
  assert.match(added.id, /^[A-Za-z0-9]{20}$/);
});

test('errors: invalid writes are invalid-argument', async () => {
  const bad = [
    () => setDoc(doc(db, 'c', '__reserved__'), { s: 1 }),
    () => setDoc(doc(db, '__reserved__', 'x'), { s: 1 }),
    () => setDoc(doc(db, 'c', 'x'.repeat(1501)), { s: 1 }),
    () => setDoc(doc(db, 'c', 'huge'), { s: 'x'.repeat(1048488) }),
    () => setDoc(doc(db, 'c', 'huge2'), { s: 'x'.repeat(600000), t: 'y'.repeat(600000) }),
    () => setDoc(doc(db, 'c', 'deep'), JSON.parse(`${'{"a":'.repeat(25)}1${'}'.repeat(25)}`)),
  ];
  for (const write of bad) await assert.rejects(write(), (e) => e.code === 'invalid-argument');
  await assert.rejects(async () => getDoc(doc(db, 'c', '__reserved__')), (e) => e.code === 'invalid-argument');
  await assert.rejects(runTransaction(db, async (tx) => {
    tx.set(doc(db, 'c', 't'), { a: 1 });
    await tx.get(doc(db, 'c', 't'));
  }), (e) => e.code === 'invalid-argument');
  await setDoc(doc(db, 'c', 'x'.repeat(1500)), { s: 1 });
});

// ------------------------------------------------------------------------ rules and lifecycle

test('rules: a denied read and a denied write are permission-denied', async () => {
  await assert.rejects(getDoc(doc(db, 'denied', 'x')), (e) => e.code === 'permission-denied');
  await assert.rejects(setDoc(doc(db, 'denied', 'x'), { a: 1 }), (e) => e.code === 'permission-denied');
  await assert.rejects(getDocs(collection(db, 'denied')), (e) => e.code === 'permission-denied');
  const errors = [];
  const stop = onSnapshot(doc(db, 'denied', 'y'), () => {}, (e) => errors.push(e.code));
  await waitFor(() => errors.length > 0, 10000, 'listen error');
  stop();
  assert.deepEqual(errors, ['permission-denied']);
});

test('terminate: a terminated instance refuses work, a new one serves', async () => {
  const mine = newDb();
  await setDoc(doc(mine.db, 'life', 'a'), { n: 1 });
  await terminate(mine.db);
  await assert.rejects(async () => getDoc(doc(mine.db, 'life', 'a')), /terminated/);
  await deleteApp(mine.app);
  const fresh = newDb();
  try {
    assert.equal((await getDoc(doc(fresh.db, 'life', 'a'))).get('n'), 1);
  } finally {
    await terminate(fresh.db);
    await deleteApp(fresh.app);
  }
});
