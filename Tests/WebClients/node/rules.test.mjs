// The app's firebase/firestore.rules under @firebase/rules-unit-testing 3.0.2
// (docs/app/shouts-and-whispers.md §3, §5): presence/{uid} owner-only and shape-validated,
// messages/{id} closed, users/{uid}/feed/{id} owner read and delete.
//
// Usage: FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 [FIREBASE_EMULATOR_HUB=127.0.0.1:4400] \
//          node --test rules.test.mjs
//        (HEARTH_WC_PROJECT overrides the project, default demo-wc-rules)
//
// The environment is made with an explicit host and port and the rules source (the library
// loads them into the emulator). The hub case makes a second one found through
// FIREBASE_EMULATOR_HUB alone; it is skipped when that is unset (the official emulator run
// alone has no hub).

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { firestoreTarget, requireSdkOrSkip } from './common.mjs';

const sdk = requireSdkOrSkip();
const {
  initializeTestEnvironment, assertSucceeds, assertFails,
} = sdk('@firebase/rules-unit-testing');
const {
  doc, collection, collectionGroup, getDoc, getDocs, setDoc, updateDoc, deleteDoc, query, orderBy,
  where, serverTimestamp, Timestamp, deleteField, increment, writeBatch, runTransaction,
  getCountFromServer, onSnapshot, setLogLevel,
} = sdk('firebase/firestore');

const PROJECT = process.env.HEARTH_WC_PROJECT || 'demo-wc-rules';
const RULES_FILE = fileURLToPath(new URL('../../../firebase/firestore.rules', import.meta.url));
const RULES = readFileSync(RULES_FILE, 'utf8');

let env;

before(async () => {
  setLogLevel('error');
  const { host, port } = firestoreTarget();
  env = await initializeTestEnvironment({ projectId: PROJECT, firestore: { host, port, rules: RULES } });
});

after(async () => {
  await env?.cleanup();
});

const alice = () => env.authenticatedContext('alice').firestore();
const bob = () => env.authenticatedContext('bob').firestore();
const anon = () => env.unauthenticatedContext().firestore();

/** Writes documents with the rules bypassed. */
async function seed(docs) {
  await env.withSecurityRulesDisabled(async (context) => {
    const db = context.firestore();
    for (const [path, data] of Object.entries(docs)) await setDoc(doc(db, path), data);
  });
}

const heartbeat = () => ({ lat: 51.5, lng: -0.12, geohash: 'gcpvj0duq', updatedAt: serverTimestamp() });
const longAgo = Timestamp.fromMillis(Date.UTC(2020, 0, 1));

// ------------------------------------------------------------------------ environment

test('environment: explicit host and port, rules loaded, clearFirestore', async () => {
  await seed({ 'messages/m1': { text: 'hi' } });
  await env.withSecurityRulesDisabled(async (c) => {
    assert.equal((await getDoc(doc(c.firestore(), 'messages/m1'))).exists(), true);
  });
  await env.clearFirestore();
  await env.withSecurityRulesDisabled(async (c) => {
    assert.equal((await getDoc(doc(c.firestore(), 'messages/m1'))).exists(), false);
  });
  // The rules in force are the app's: a closed collection is closed.
  await assertFails(getDoc(doc(alice(), 'messages/m1')));
});

test('environment: discovery through the emulator hub', async (t) => {
  const hub = process.env.FIREBASE_EMULATOR_HUB;
  if (!hub) {
    t.skip('FIREBASE_EMULATOR_HUB not set');
    return;
  }
  // The library prefers FIRESTORE_EMULATOR_HOST over the hub: hide it while discovering.
  const saved = process.env.FIRESTORE_EMULATOR_HOST;
  delete process.env.FIRESTORE_EMULATOR_HOST;
  let found;
  try {
    found = await initializeTestEnvironment({ projectId: `${PROJECT}-hub`, firestore: { rules: RULES } });
  } finally {
    process.env.FIRESTORE_EMULATOR_HOST = saved;
  }
  try {
    const { host, port } = firestoreTarget();
    assert.equal(found.emulators.firestore.port, port);
    assert.equal(found.emulators.firestore.host, host);
    const db = found.authenticatedContext('carol').firestore();
    await assertSucceeds(setDoc(doc(db, 'presence/carol'), heartbeat()));
    await assertFails(getDoc(doc(db, 'presence/carol')));
    await found.clearFirestore();
  } finally {
    await found.cleanup();
  }
});

// ------------------------------------------------------------------------ presence: creates

test('presence: the owner creates with a heartbeat stamped by the server', async () => {
  await env.clearFirestore();
  await assertSucceeds(setDoc(doc(alice(), 'presence/alice'), heartbeat(), { merge: true }));
  await assertSucceeds(setDoc(doc(bob(), 'presence/bob'), heartbeat()));
});

test('presence: the owner creates with a token save alone, a null token, a 4096-char token', async () => {
  await env.clearFirestore();
  await assertSucceeds(setDoc(doc(alice(), 'presence/alice'), { fcmToken: 'tok-1' }, { merge: true }));
  await assertSucceeds(setDoc(doc(bob(), 'presence/bob'), { fcmToken: null }, { merge: true }));
  await assertSucceeds(setDoc(doc(env.authenticatedContext('c').firestore(), 'presence/c'),
    { fcmToken: 'x'.repeat(4096) }));
  await assertFails(setDoc(doc(env.authenticatedContext('d').firestore(), 'presence/d'),
    { fcmToken: 'x'.repeat(4097) }));
  await assertFails(setDoc(doc(env.authenticatedContext('e').firestore(), 'presence/e'), { fcmToken: 42 }));
});

test('presence: a position write must stamp updatedAt with request.time', async () => {
  await env.clearFirestore();
  const db = alice();
  await assertFails(setDoc(doc(db, 'presence/alice'), { ...heartbeat(), updatedAt: Timestamp.now() }));
  await assertFails(setDoc(doc(db, 'presence/alice'), { lat: 1, lng: 2, geohash: 's00twy01m' }));
  await assertFails(setDoc(doc(db, 'presence/alice'), { lat: 1 }));
  await assertFails(setDoc(doc(db, 'presence/alice'), { updatedAt: longAgo }));
  await assertSucceeds(setDoc(doc(db, 'presence/alice'), { lat: 1, updatedAt: serverTimestamp() }));
});

test('presence: shape validation on create', async () => {
  await env.clearFirestore();
  const db = alice();
  const at = (data) => setDoc(doc(db, 'presence/alice'), { ...heartbeat(), ...data });
  await assertFails(at({ lat: 90.5 }));
  await assertFails(at({ lat: -91 }));
  await assertFails(at({ lng: 180.01 }));
  await assertFails(at({ lng: -181 }));
  await assertFails(at({ lat: '51.5' }));
  await assertFails(at({ geohash: 'x'.repeat(13) }));
  await assertFails(at({ geohash: 9 }));
  await assertFails(at({ extra: true }));
  await assertFails(at({ lastSentAt: serverTimestamp() }));
  await assertSucceeds(at({ lat: -90, lng: 180, geohash: 'x'.repeat(12) }));
});

test('presence: nobody else writes a user\'s document', async () => {
  await env.clearFirestore();
  await assertFails(setDoc(doc(bob(), 'presence/alice'), heartbeat()));
  await assertFails(setDoc(doc(anon(), 'presence/alice'), heartbeat()));
  await assertFails(setDoc(doc(anon(), 'presence/alice'), { fcmToken: 't' }));
  await seed({ 'presence/alice': { fcmToken: 't', updatedAt: longAgo } });
  await assertFails(updateDoc(doc(bob(), 'presence/alice'), { fcmToken: 'stolen' }));
  await assertFails(deleteDoc(doc(bob(), 'presence/alice')));
  await assertFails(deleteDoc(doc(anon(), 'presence/alice')));
});

// ------------------------------------------------------------------------ presence: updates

test('presence: updates beside a server-written lastSentAt', async () => {
  await env.clearFirestore();
  await seed({
    'presence/alice': {
      lat: 1, lng: 1, geohash: 's00twy01m', updatedAt: longAgo, fcmToken: 'old', lastSentAt: longAgo,
    },
  });
  const ref = doc(alice(), 'presence/alice');
  // A token save touches no position field: updatedAt may stay old.
  await assertSucceeds(setDoc(ref, { fcmToken: 'new' }, { merge: true }));
  await assertSucceeds(updateDoc(ref, { fcmToken: null }));
  await assertSucceeds(setDoc(ref, heartbeat(), { merge: true }));
  await assertFails(setDoc(ref, { lat: 2 }, { merge: true }));
  await assertFails(setDoc(ref, { geohash: 'u10hb7951', updatedAt: longAgo }, { merge: true }));
  await assertFails(updateDoc(ref, { lastSentAt: serverTimestamp() }));
  await assertFails(updateDoc(ref, { lastSentAt: deleteField() }));
  // A full set drops lastSentAt: a removal counts as a change.
  await assertFails(setDoc(ref, heartbeat()));
  await assertFails(updateDoc(ref, { lng: 200, updatedAt: serverTimestamp() }));
  await assertFails(updateDoc(ref, { nickname: 'al' }));
  await env.withSecurityRulesDisabled(async (c) => {
    const data = (await getDoc(doc(c.firestore(), 'presence/alice'))).data();
    assert.equal(data.lat, 51.5);
    assert.equal(data.fcmToken, null);
    assert.ok(data.lastSentAt.isEqual(longAgo));
  });
});

test('presence: removing a position field is a position change', async () => {
  await env.clearFirestore();
  await seed({ 'presence/alice': { lat: 1, lng: 1, geohash: 's00twy01m', updatedAt: longAgo } });
  const ref = doc(alice(), 'presence/alice');
  await assertFails(updateDoc(ref, { geohash: deleteField() }));
  await assertSucceeds(updateDoc(ref, { geohash: deleteField(), updatedAt: serverTimestamp() }));
  await assertSucceeds(updateDoc(ref, { fcmToken: 'tok' }));
});

test('presence: nobody reads it, the owner included; the owner deletes it', async () => {
  await env.clearFirestore();
  await seed({ 'presence/alice': { fcmToken: 't', updatedAt: longAgo } });
  await assertFails(getDoc(doc(alice(), 'presence/alice')));
  await assertFails(getDoc(doc(bob(), 'presence/alice')));
  await assertFails(getDoc(doc(anon(), 'presence/alice')));
  await assertFails(getDocs(collection(alice(), 'presence')));
  await assertFails(getDocs(query(collection(alice(), 'presence'), orderBy('geohash'))));
  await assertSucceeds(deleteDoc(doc(alice(), 'presence/alice')));
  await assertSucceeds(deleteDoc(doc(alice(), 'presence/alice'))); // a missing document too
});

// ------------------------------------------------------------------------ messages

test('messages: closed to every client', async () => {
  await env.clearFirestore();
  await seed({ 'messages/m1': { senderId: 'alice', text: 'hi', kind: 'shout' } });
  for (const db of [alice(), anon()]) {
    await assertFails(getDoc(doc(db, 'messages/m1')));
    await assertFails(getDocs(collection(db, 'messages')));
    await assertFails(setDoc(doc(db, 'messages/m2'), { senderId: 'alice', text: 'x', kind: 'shout' }));
    await assertFails(updateDoc(doc(db, 'messages/m1'), { text: 'edited' }));
    await assertFails(deleteDoc(doc(db, 'messages/m1')));
  }
});

// ------------------------------------------------------------------------ feed

const feedItem = (id, sentAt) => ({
  messageId: id, senderId: 'bob', senderName: 'Bob', senderPhotoUrl: null, text: 'hello',
  kind: 'shout', lat: 1, lng: 2, sentAt, distanceM: 12.5, isOwn: false,
});

test('feed: the owner reads and lists it as the client listens (orderBy sentAt desc)', async () => {
  await env.clearFirestore();
  await seed({
    'users/alice/feed/m1': feedItem('m1', Timestamp.fromMillis(1000)),
    'users/alice/feed/m2': feedItem('m2', Timestamp.fromMillis(2000)),
    'users/bob/feed/m1': feedItem('m1', Timestamp.fromMillis(1000)),
  });
  await assertSucceeds(getDoc(doc(alice(), 'users/alice/feed/m1')));
  await assertSucceeds(getDoc(doc(alice(), 'users/alice/feed/missing')));
  const snap = await assertSucceeds(getDocs(query(collection(alice(), 'users/alice/feed'), orderBy('sentAt', 'desc'))));
  assert.deepEqual(snap.docs.map((d) => d.id), ['m2', 'm1']);
  await assertSucceeds(getDocs(query(collection(alice(), 'users/alice/feed'), where('kind', '==', 'shout'))));
});

test('feed: nobody else reads a user\'s feed', async () => {
  await env.clearFirestore();
  await seed({ 'users/alice/feed/m1': feedItem('m1', Timestamp.fromMillis(1000)) });
  await assertFails(getDoc(doc(bob(), 'users/alice/feed/m1')));
  await assertFails(getDoc(doc(anon(), 'users/alice/feed/m1')));
  await assertFails(getDocs(collection(bob(), 'users/alice/feed')));
  await assertFails(getDocs(collection(anon(), 'users/alice/feed')));
  await assertFails(getDoc(doc(alice(), 'users/alice')));
});

test('feed: clients never create or update; the owner deletes', async () => {
  await env.clearFirestore();
  await seed({ 'users/alice/feed/m1': feedItem('m1', Timestamp.fromMillis(1000)) });
  await assertFails(setDoc(doc(alice(), 'users/alice/feed/m9'), feedItem('m9', Timestamp.now())));
  await assertFails(updateDoc(doc(alice(), 'users/alice/feed/m1'), { text: 'edited' }));
  await assertFails(setDoc(doc(bob(), 'users/alice/feed/m9'), feedItem('m9', Timestamp.now())));
  await assertFails(deleteDoc(doc(bob(), 'users/alice/feed/m1')));
  await assertFails(deleteDoc(doc(anon(), 'users/alice/feed/m1')));
  await assertSucceeds(deleteDoc(doc(alice(), 'users/alice/feed/m1')));
  await env.withSecurityRulesDisabled(async (c) => {
    assert.equal((await getDoc(doc(c.firestore(), 'users/alice/feed/m1'))).exists(), false);
  });
});

test('batches, transactions, counts, listeners and sizes in characters', async () => {
  await env.clearFirestore();
  const db = alice();
  const ref = doc(db, 'presence/alice');
  const batch = writeBatch(db); // the client's two merge writes, in one batch
  batch.set(ref, heartbeat(), { merge: true });
  batch.set(ref, { fcmToken: 't' }, { merge: true });
  await assertSucceeds(batch.commit());
  await assertSucceeds(runTransaction(db, async (tx) => { tx.set(ref, heartbeat(), { merge: true }); }));
  await assertFails(runTransaction(db, async (tx) => { await tx.get(ref); }));
  // An update of a missing document is judged as an update (resource is null): denied.
  await assertFails(updateDoc(doc(bob(), 'presence/bob'), { fcmToken: 'x' }));
  // Writing a position field with its current value changes nothing: no stamp needed.
  await assertSucceeds(updateDoc(ref, { lat: 51.5 }));
  await assertSucceeds(updateDoc(ref, { lat: increment(1), updatedAt: serverTimestamp() }));
  await assertFails(updateDoc(ref, { lat: NaN, updatedAt: serverTimestamp() }));
  await assertFails(updateDoc(ref, { fcmToken: ['t'] }));
  // size() counts characters, not bytes.
  await assertSucceeds(updateDoc(ref, { geohash: 'é'.repeat(12), updatedAt: serverTimestamp() }));
  await assertFails(updateDoc(ref, { geohash: '日'.repeat(13), updatedAt: serverTimestamp() }));
  await assertFails(setDoc(ref, { fcmToken: 'y', updatedAt: Timestamp.fromMillis(0) }, { merge: true }));
  await assertSucceeds(getCountFromServer(collection(db, 'users/alice/feed')));
  await assertFails(getCountFromServer(collection(db, 'users/bob/feed')));
  await assertFails(getDocs(collectionGroup(db, 'feed')));
  const listen = (q) => new Promise((resolve, reject) => {
    const stop = onSnapshot(q, () => { stop(); resolve(); }, reject);
  });
  await assertFails(listen(ref));
  await assertSucceeds(listen(query(collection(db, 'users/alice/feed'), orderBy('sentAt', 'desc'))));
});

test('assertFails: the denial is a permission-denied error', async () => {
  const error = await assertFails(getDoc(doc(anon(), 'messages/m1')));
  assert.equal(error.code, 'permission-denied');
  await assert.rejects(assertFails(getDoc(doc(alice(), 'users/alice/feed/m1'))), /Expected request to fail/);
  await assert.rejects(assertSucceeds(getDoc(doc(anon(), 'messages/m1'))), (e) => e.code === 'permission-denied');
});
