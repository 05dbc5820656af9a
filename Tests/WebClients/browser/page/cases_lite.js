// Cases for the lite SDK (REST through fetch): run with --transport lite.
import {
  doc, collection, setDoc, getDoc, getDocs, updateDoc, deleteDoc, query, where, orderBy, limit,
  runTransaction, writeBatch, getCount, getAggregate, sum, average, count, increment,
  serverTimestamp, Timestamp, GeoPoint, Bytes,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore-lite.js";
import { canon, eq, ok, rejects, oneOf } from "./check.js";

export const cases = [];
const add = (name, run) => cases.push({ name: `lite-${name}`, kind: "lite", run });

add("values-roundtrip", async ctx => {
  const db = ctx.lite();
  const v = {
    nul: null, t: true, int: 42, big: 9007199254740991, dbl: 3.25, nan: NaN,
    inf: Infinity, ninf: -Infinity, uni: "héllo ✓ 𝄞 日本語",
    bytes: Bytes.fromUint8Array(new Uint8Array([0, 255])),
    ts: new Timestamp(1700000000, 5000), geo: new GeoPoint(-33.5, 151.25), ref: doc(db, "x/y"),
    arr: [1, "a", null], map: { a: { b: [true] } },
  };
  await setDoc(doc(db, "v/all"), v);
  const s = await getDoc(doc(db, "v/all"));
  for (const k of Object.keys(v)) eq(canon(s.get(k)), canon(v[k]), `field ${k}`);
  // Recorded from the official emulator: -0 is sent as doubleValue "-0" and read back as 0.0.
  await setDoc(doc(db, "v/negzero"), { z: -0 });
  // Production and Hearth keep the sign; the emulator reads 0.0 back (see values-roundtrip).
  oneOf(canon((await getDoc(doc(db, "v/negzero"))).get("z")), ["num:-0", "num:0"], "-0 read back");
});

add("get-set", async ctx => {
  const db = ctx.lite();
  await setDoc(doc(db, "g/a"), { v: 1 });
  await setDoc(doc(db, "g/a"), { w: 2 }, { merge: true });
  eq((await getDoc(doc(db, "g/a"))).data(), { v: 1, w: 2 }, "merged");
  await updateDoc(doc(db, "g/a"), { v: increment(1), at: serverTimestamp() });
  const s = await getDoc(doc(db, "g/a"));
  ok(s.get("at") instanceof Timestamp, "server timestamp");
  eq(s.get("v"), 2, "increment");
  ok(!(await getDoc(doc(db, "g/none"))).exists(), "missing");
  await deleteDoc(doc(db, "g/a"));
  ok(!(await getDoc(doc(db, "g/a"))).exists(), "deleted");
  await rejects(updateDoc(doc(db, "g/none"), { v: 1 }), "not-found", "update missing");
});

add("query", async ctx => {
  const db = ctx.lite();
  const b = writeBatch(db);
  for (const [id, n] of [["a", 1], ["b", 2], ["c", 3], ["d", 4]]) b.set(doc(db, "q", id), { n, odd: n % 2 === 1 });
  await b.commit();
  const ids = s => s.docs.map(d => d.id);
  const odd = query(collection(db, "q"), where("odd", "==", true), orderBy("n", "desc"));
  eq(ids(await getDocs(odd)), ["c", "a"], "where/orderBy");
  eq(ids(await getDocs(query(collection(db, "q"), orderBy("n"), limit(2)))), ["a", "b"], "limit");
  eq((await getCount(collection(db, "q"))).data().count, 4, "count");
  const agg = await getAggregate(collection(db, "q"), { c: count(), s: sum("n"), a: average("n") });
  eq(agg.data(), { c: 4, s: 10, a: 2.5 }, "aggregate");
});

add("transaction", async ctx => {
  const db = ctx.lite();
  await setDoc(doc(db, "t/acct"), { balance: 10 });
  const seen = await runTransaction(db, async tx => {
    const s = await tx.get(doc(db, "t/acct"));
    tx.update(doc(db, "t/acct"), { balance: s.get("balance") + 5 });
    tx.set(doc(db, "t/log"), { added: 5 });
    return s.get("balance");
  });
  eq(seen, 10, "read in transaction");
  eq((await getDoc(doc(db, "t/acct"))).data(), { balance: 15 }, "balance");
  eq((await getDoc(doc(db, "t/log"))).data(), { added: 5 }, "log");
});
