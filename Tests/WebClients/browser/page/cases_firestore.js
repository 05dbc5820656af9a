// Cases for the full SDK (WebChannel, or long polling): run with --transport default,
// long-polling and auto-detect. Each gets ctx (harness.js) with a fresh project.
import {
  doc, collection, collectionGroup, setDoc, getDoc, getDocs, getDocFromServer, getDocsFromServer,
  updateDoc, deleteDoc, addDoc, writeBatch, runTransaction, onSnapshot, query, where, orderBy, limit,
  limitToLast, startAt, startAfter, endAt, endBefore, or, and, getCountFromServer,
  getAggregateFromServer, count, sum, average, serverTimestamp, increment, arrayUnion, arrayRemove,
  deleteField, disableNetwork, enableNetwork, Timestamp, GeoPoint, Bytes,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore.js";
import { canon, eq, ok, rejects, sleep, waitFor, oneOf } from "./check.js";

export const cases = [];
const add = (name, run, extra = {}) => cases.push({ name, kind: "full", run, ...extra });

// --- values -----------------------------------------------------------------------------------
export function sampleValues(db, refOf) {
  return {
    nul: null, t: true, f: false,
    int: 42, neg: -7, big: 9007199254740991, zero: 0,
    dbl: 3.25, nan: NaN, inf: Infinity, ninf: -Infinity,
    str: "plain", uni: "héllo wörld ✓ 𝄞 日本語 \u0000 end", empty: "",
    bytes: Bytes.fromUint8Array(new Uint8Array([0, 1, 2, 254, 255])),
    ts: new Timestamp(1700000000, 123456000),
    geo: new GeoPoint(48.8584, 2.2945),
    ref: refOf(db, "other/doc1"),
    arr: [1, "two", null, [3]].slice(0, 3).concat([{ four: 4 }]),
    map: { a: 1, b: { c: "d", e: [true, false] } },
    nested: { l1: { l2: { l3: { arr: [{ x: 1 }, { y: [2, 3] }] } } } },
  };
}

add("values-roundtrip", async ctx => {
  const db = ctx.firestore();
  const v = sampleValues(db, doc);
  await setDoc(doc(db, "values/all"), v);
  const snap = await getDocFromServer(doc(db, "values/all"));
  for (const k of Object.keys(v)) eq(canon(snap.get(k)), canon(v[k]), `field ${k}`);
  eq(Object.keys(snap.data()).sort(), Object.keys(v).sort(), "field names");
  // -0 is sent as doubleValue "-0". Production keeps the sign (googleapis/nodejs-firestore#1638),
  // as Hearth does; the official emulator's JSON path reads it back as 0.0.
  await setDoc(doc(db, "values/negzero"), { z: -0 });
  oneOf(canon((await getDocFromServer(doc(db, "values/negzero"))).get("z")), ["num:-0", "num:0"], "-0 read back");
  // A second instance reads the same bytes back over the wire (no local cache).
  const other = await getDocFromServer(doc(ctx.firestore(), "values/all"));
  eq(canon(other.data()), canon(snap.data()), "second client");
});

// --- queries ----------------------------------------------------------------------------------
const SEED = {
  a: { n: 1, s: "apple", tags: ["red", "fruit"], g: "x" },
  b: { n: 2, s: "banana", tags: ["yellow", "fruit"], g: "y" },
  c: { n: 3, s: "cherry", tags: ["red"], g: "x" },
  d: { n: 4, s: "date", tags: ["brown", "fruit"], g: "y" },
  e: { n: 5, s: "elder", tags: [], g: "z" },
};

async function seed(db, path = "items") {
  const batch = writeBatch(db);
  for (const [id, data] of Object.entries(SEED)) batch.set(doc(db, path, id), data);
  await batch.commit();
  return collection(db, path);
}

const ids = snap => snap.docs.map(d => d.id);

const QUERIES = [
  ["eq", c => query(c, where("g", "==", "x")), ["a", "c"]],
  ["ne", c => query(c, where("g", "!=", "x")), ["b", "d", "e"]],
  ["lt", c => query(c, where("n", "<", 3)), ["a", "b"]],
  ["le", c => query(c, where("n", "<=", 3)), ["a", "b", "c"]],
  ["gt", c => query(c, where("n", ">", 3)), ["d", "e"]],
  ["ge", c => query(c, where("n", ">=", 3)), ["c", "d", "e"]],
  ["in", c => query(c, where("s", "in", ["apple", "date", "zzz"])), ["a", "d"]],
  ["not-in", c => query(c, where("g", "not-in", ["x", "z"])), ["b", "d"]],
  ["array-contains", c => query(c, where("tags", "array-contains", "red")), ["a", "c"]],
  ["array-contains-any", c => query(c, where("tags", "array-contains-any", ["yellow", "brown"])), ["b", "d"]],
  ["or", c => query(c, or(where("n", "==", 1), where("g", "==", "z"))), ["a", "e"]],
  ["and-or", c => query(c, and(where("g", "in", ["x", "y"]), or(where("n", "<", 2), where("n", ">", 3)))), ["a", "d"]],
  ["orderBy-asc", c => query(c, orderBy("s")), ["a", "b", "c", "d", "e"]],
  ["orderBy-desc", c => query(c, orderBy("n", "desc")), ["e", "d", "c", "b", "a"]],
  ["limit", c => query(c, orderBy("n"), limit(2)), ["a", "b"]],
  ["limitToLast", c => query(c, orderBy("n"), limitToLast(2)), ["d", "e"]],
  ["startAt", c => query(c, orderBy("n"), startAt(2)), ["b", "c", "d", "e"]],
  ["startAfter", c => query(c, orderBy("n"), startAfter(2)), ["c", "d", "e"]],
  ["endAt", c => query(c, orderBy("n"), endAt(2)), ["a", "b"]],
  ["endBefore", c => query(c, orderBy("n"), endBefore(2)), ["a"]],
  ["cursor-range", c => query(c, orderBy("g"), orderBy("n", "desc"), startAfter("x", 3), endAt("y", 2)),
    ["a", "d", "b"]],
];

for (const [kind, build, want] of QUERIES) {
  add(`query-${kind}`, async ctx => {
    const db = ctx.firestore();
    const c = await seed(db);
    eq(ids(await getDocsFromServer(build(c))), want, kind);
  });
}

add("query-cursor-snapshots", async ctx => {
  const db = ctx.firestore();
  const c = await seed(db);
  const b = await getDoc(doc(db, "items/b"));
  const d = await getDoc(doc(db, "items/d"));
  const base = query(c, orderBy("n"));
  eq(ids(await getDocs(query(base, startAt(b), endBefore(d)))), ["b", "c"], "startAt/endBefore snapshot");
  eq(ids(await getDocs(query(base, startAfter(b), endAt(d)))), ["c", "d"], "startAfter/endAt snapshot");
  // A snapshot cursor without orderBy orders by __name__.
  eq(ids(await getDocs(query(c, startAfter(d)))), ["e"], "snapshot cursor on name");
});

add("query-collectionGroup", async ctx => {
  const db = ctx.firestore();
  await setDoc(doc(db, "shops/s1/items/i1"), { n: 1 });
  await setDoc(doc(db, "shops/s2/items/i2"), { n: 2 });
  await setDoc(doc(db, "items/i3"), { n: 3 });
  await setDoc(doc(db, "shops/s1/other/i4"), { n: 4 });
  eq(ids(await getDocs(query(collectionGroup(db, "items"), orderBy("n")))), ["i1", "i2", "i3"], "group");
  eq(ids(await getDocs(query(collectionGroup(db, "items"), where("n", ">", 1)))), ["i2", "i3"], "group where");
});

// --- aggregations -----------------------------------------------------------------------------
add("aggregate", async ctx => {
  const db = ctx.firestore();
  const c = await seed(db);
  eq((await getCountFromServer(c)).data().count, 5, "count");
  eq((await getCountFromServer(query(c, where("g", "==", "y")))).data().count, 2, "count where");
  const agg = await getAggregateFromServer(c, { c: count(), s: sum("n"), a: average("n") });
  eq(agg.data(), { c: 5, s: 15, a: 3 }, "count/sum/average");
  const none = await getAggregateFromServer(query(c, where("g", "==", "none")), { s: sum("n"), a: average("n") });
  eq(none.data(), { s: 0, a: null }, "empty sum/average");
});

// --- reads ------------------------------------------------------------------------------------
add("reads", async ctx => {
  const db = ctx.firestore();
  await setDoc(doc(db, "r/one"), { v: 1 });
  eq((await getDoc(doc(db, "r/one"))).data(), { v: 1 }, "getDoc");
  const missing = await getDocFromServer(doc(db, "r/none"));
  ok(!missing.exists(), "missing doc exists");
  eq(ids(await getDocs(collection(db, "r"))), ["one"], "getDocs");
  const fresh = ctx.firestore();
  const s = await getDocFromServer(doc(fresh, "r/one"));
  eq([s.data(), s.metadata.fromCache, s.metadata.hasPendingWrites], [{ v: 1 }, false, false], "getDocFromServer");
  await deleteDoc(doc(db, "r/one"));
  ok(!(await getDocFromServer(doc(fresh, "r/one"))).exists(), "deleted");
});

// --- listeners: the sequence of (data, hasPendingWrites, fromCache) is recorded from the
// official emulator and asserted exactly.
const meta = s => `pending=${s.metadata.hasPendingWrites} cache=${s.metadata.fromCache}`;
const docEvent = s => `${s.exists() ? JSON.stringify(s.data()) : "missing"} ${meta(s)}`;
// Documents, then the changes as type initial + id (a added, m modified, r removed).
const queryEvent = s => {
  const docs = s.docs.map(d => `${d.id}:${JSON.stringify(d.data())}`).join(",");
  const changes = s.docChanges({ includeMetadataChanges: true }).map(c => c.type[0] + c.doc.id).join(",");
  return `[${docs}] changes=${changes} ${meta(s)}`;
};
const synced = e => e.endsWith("pending=false cache=false");

add("listen-doc", async ctx => {
  const db = ctx.firestore();
  const events = [];
  const unsub = onSnapshot(doc(db, "l/d"), { includeMetadataChanges: true }, s => events.push(docEvent(s)));
  await waitFor(() => events.some(e => e.endsWith("cache=false")), 10000, "first server snapshot");
  await setDoc(doc(db, "l/d"), { v: 1 });
  await waitFor(() => events.at(-1) === '{"v":1} pending=false cache=false', 10000, "acknowledged write");
  await updateDoc(doc(db, "l/d"), { v: 2 });
  await waitFor(() => events.at(-1) === '{"v":2} pending=false cache=false', 10000, "acknowledged update");
  unsub();
  eq(events, [
    "missing pending=false cache=false",
    '{"v":1} pending=true cache=false',
    '{"v":1} pending=false cache=false',
    '{"v":2} pending=true cache=false',
    '{"v":2} pending=false cache=false',
  ], "events");
});

add("listen-query", async ctx => {
  const db = ctx.firestore();
  await setDoc(doc(db, "q/a"), { n: 1 });
  const events = [];
  const q = query(collection(db, "q"), where("n", ">", 0), orderBy("n"));
  const unsub = onSnapshot(q, { includeMetadataChanges: true }, s => events.push(queryEvent(s)));
  await waitFor(() => events.some(e => e.endsWith("cache=false")), 10000, "first server snapshot");
  await setDoc(doc(db, "q/b"), { n: 2 });
  await waitFor(() => events.at(-1).includes("b:") && synced(events.at(-1)), 10000, "ack add");
  await updateDoc(doc(db, "q/a"), { n: 0 });
  await waitFor(() => !events.at(-1).includes("a:") && synced(events.at(-1)), 10000, "ack remove");
  unsub();
  eq(events, [
    '[a:{"n":1}] changes=aa pending=false cache=false',
    '[a:{"n":1},b:{"n":2}] changes=ab pending=true cache=false',
    '[a:{"n":1},b:{"n":2}] changes=mb pending=false cache=false',
    '[b:{"n":2}] changes=ra pending=false cache=false',
  ], "events");
});

add("listen-other-client", async ctx => {
  const reader = ctx.firestore(), writer = ctx.firestore();
  const events = [];
  const q = query(collection(reader, "o"), orderBy("n"));
  const unsub = onSnapshot(q, { includeMetadataChanges: true }, s => events.push(queryEvent(s)));
  await waitFor(() => events.some(e => e.endsWith("cache=false")), 10000, "first server snapshot");
  await setDoc(doc(writer, "o/x"), { n: 1 });
  await waitFor(() => events.at(-1).includes("x:"), 10000, "other client's add");
  await setDoc(doc(writer, "o/y"), { n: 2 });
  await waitFor(() => events.at(-1).includes("y:"), 10000, "other client's second add");
  await deleteDoc(doc(writer, "o/x"));
  await waitFor(() => !events.at(-1).includes("x:"), 10000, "other client's delete");
  unsub();
  const before = [
    "[] changes= pending=false cache=false",
    '[x:{"n":1}] changes=ax pending=false cache=false',
    '[x:{"n":1},y:{"n":2}] changes=ay pending=false cache=false',
  ];
  oneOf(events, [
    // The emulator answers a delete by RESET of the target: x, gone from the result, is in
    // limbo (the SDK listens to it alone) until that target says it is deleted.
    [...before, '[x:{"n":1},y:{"n":2}] changes= pending=false cache=true',
      '[y:{"n":2}] changes=rx pending=false cache=false'],
    // Hearth sends the delete itself (documentDelete), as production does: no limbo snapshot.
    [...before, '[y:{"n":2}] changes=rx pending=false cache=false'],
  ], "events");
});

add("network-toggle", async ctx => {
  const reader = ctx.firestore(), writer = ctx.firestore();
  await setDoc(doc(writer, "n/d"), { v: 1 });
  const events = [];
  const unsub = onSnapshot(doc(reader, "n/d"), { includeMetadataChanges: true }, s => events.push(docEvent(s)));
  await waitFor(() => events.at(-1) === '{"v":1} pending=false cache=false', 10000, "first snapshot");
  await disableNetwork(reader);
  await waitFor(() => events.at(-1) === '{"v":1} pending=false cache=true', 10000, "offline snapshot");
  await setDoc(doc(writer, "n/d"), { v: 2 });
  await sleep(300);
  await enableNetwork(reader);
  await waitFor(() => events.at(-1) === '{"v":2} pending=false cache=false', 10000, "resumed listener");
  unsub();
  eq(events, [
    '{"v":1} pending=false cache=false',
    '{"v":1} pending=false cache=true',
    '{"v":2} pending=false cache=false',
  ], "events");
});

// --- writes -----------------------------------------------------------------------------------
add("transaction", async ctx => {
  const db = ctx.firestore();
  await setDoc(doc(db, "t/acct"), { balance: 100 });
  const result = await runTransaction(db, async tx => {
    const s = await tx.get(doc(db, "t/acct"));
    const missing = await tx.get(doc(db, "t/none"));
    tx.update(doc(db, "t/acct"), { balance: s.get("balance") - 30 });
    tx.set(doc(db, "t/log"), { moved: 30, sawMissing: !missing.exists() });
    return s.get("balance");
  });
  eq(result, 100, "transaction result");
  eq((await getDocFromServer(doc(db, "t/acct"))).data(), { balance: 70 }, "balance");
  eq((await getDocFromServer(doc(db, "t/log"))).data(), { moved: 30, sawMissing: true }, "log");
});

add("transaction-contended", async ctx => {
  const a = ctx.firestore(), b = ctx.firestore();
  await setDoc(doc(a, "t/counter"), { n: 0 });
  let attempts = 0;
  const bump = db => runTransaction(db, async tx => {
    attempts++;
    const s = await tx.get(doc(db, "t/counter"));
    await sleep(50);
    tx.update(doc(db, "t/counter"), { n: s.get("n") + 1 });
  });
  const runs = [];
  for (let i = 0; i < 4; i++) runs.push(bump(a), bump(b));
  await Promise.all(runs);
  eq((await getDocFromServer(doc(a, "t/counter"))).data(), { n: 8 }, "counter");
  ok(attempts >= 8, `attempts ${attempts}`);
  return `attempts=${attempts}`;
});

add("write-batch", async ctx => {
  const db = ctx.firestore();
  await setDoc(doc(db, "b/gone"), { x: 1 });
  await setDoc(doc(db, "b/upd"), { x: 1, y: 1 });
  const batch = writeBatch(db);
  batch.set(doc(db, "b/new"), { x: 2 });
  batch.set(doc(db, "b/upd"), { y: 2 }, { merge: true });
  batch.update(doc(db, "b/upd"), { z: 3 });
  batch.delete(doc(db, "b/gone"));
  await batch.commit();
  const got = await getDocsFromServer(collection(db, "b"));
  eq(got.docs.map(d => [d.id, d.data()]), [["new", { x: 2 }], ["upd", { x: 1, y: 2, z: 3 }]], "after batch");
  await rejects(updateDoc(doc(db, "b/absent"), { x: 1 }), "not-found", "update of a missing doc");
});

add("update-transforms", async ctx => {
  const db = ctx.firestore();
  const ref = doc(db, "u/d");
  await setDoc(ref, { n: 1, f: 1.5, tags: ["a", "b"], gone: "x", keep: true });
  const before = Date.now();
  await updateDoc(ref, {
    at: serverTimestamp(), n: increment(2), f: increment(0.25), fresh: increment(5),
    tags: arrayUnion("c", "a"), gone: deleteField(),
  });
  await updateDoc(ref, { tags: arrayRemove("b") });
  const s = await getDocFromServer(ref);
  const d = s.data();
  ok(d.at instanceof Timestamp, "serverTimestamp is a Timestamp");
  ok(Math.abs(d.at.toMillis() - before) < 60000, "serverTimestamp near now");
  delete d.at;
  eq(canon(d), canon({ f: 1.75, fresh: 5, keep: true, n: 3, tags: ["a", "c"] }), "after transforms");
  // addDoc picks an id of 20 characters.
  const added = await addDoc(collection(db, "u"), { v: 1 });
  ok(/^[A-Za-z0-9]{20}$/.test(added.id), `addDoc id ${added.id}`);
});

// --- security rules ---------------------------------------------------------------------------
const RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /open/{d} { allow read, write: if true; }
    match /denied/{d} { allow read, write: if false; }
  }
}`;

add("rules-listen-denied", async ctx => {
  const r = await ctx.rules(RULES);
  eq(r.status, 200, "PUT rules");
  const db = ctx.firestore();
  await setDoc(doc(db, "open/x"), { v: 1 });
  const err = await new Promise((resolve, reject) => {
    onSnapshot(doc(db, "denied/x"), () => reject(new Error("denied listener got a snapshot")), resolve);
  });
  eq(err.code, "permission-denied", "listener error");
  // The stream survives: another listener still works.
  const s = await new Promise((resolve, reject) => onSnapshot(doc(db, "open/x"), resolve, reject));
  eq(s.data(), { v: 1 }, "allowed listener");
});

add("rules-write-denied", async ctx => {
  const r = await ctx.rules(RULES);
  eq(r.status, 200, "PUT rules");
  const db = ctx.firestore();
  await rejects(setDoc(doc(db, "denied/x"), { v: 1 }), "permission-denied", "denied write");
  await rejects(getDocFromServer(doc(db, "denied/x")), "permission-denied", "denied read");
  await setDoc(doc(db, "open/y"), { v: 2 });
  eq((await getDocFromServer(doc(db, "open/y"))).data(), { v: 2 }, "allowed write");
});
