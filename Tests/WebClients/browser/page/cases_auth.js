// Auth and callable cases: Hearth only (the official Firestore emulator has no Auth or Functions
// emulator). They run in config.project, the project --auth/--functions serve, and are skipped
// when those flags are absent.
import {
  signInAnonymously, createUserWithEmailAndPassword, signInWithEmailAndPassword, signOut,
  onAuthStateChanged, signInWithCredential, GoogleAuthProvider,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-auth.js";
import { httpsCallable } from "https://www.gstatic.com/firebasejs/10.11.1/firebase-functions.js";
import {
  doc, setDoc, getDocFromServer, serverTimestamp, collection, query, orderBy, onSnapshot,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore.js";
import { eq, ok, rejects, waitFor } from "./check.js";

export const cases = [];
const add = (name, needs, run) =>
  cases.push({ name: `auth-${name}`, kind: "full", needs, run, transports: ["default"] });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

add("anonymous", ["auth"], async ctx => {
  const auth = ctx.auth(ctx.app());
  const cred = await signInAnonymously(auth);
  ok(cred.user.isAnonymous, "anonymous user");
  ok(cred.user.uid.length > 0, "uid");
  const claims = JSON.parse(atob((await cred.user.getIdToken()).split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  eq([claims.user_id, claims.firebase.sign_in_provider], [cred.user.uid, "anonymous"], "token claims");
});

add("email-password", ["auth"], async ctx => {
  const auth = ctx.auth(ctx.app());
  const email = `u${unique()}@example.com`;
  const created = await createUserWithEmailAndPassword(auth, email, "secret-123");
  await signOut(auth);
  await rejects(signInWithEmailAndPassword(auth, email, "wrong-pass"), "auth/wrong-password", "wrong password");
  const signed = await signInWithEmailAndPassword(auth, email, "secret-123");
  eq([signed.user.uid, signed.user.email], [created.user.uid, email], "same user");
});

add("state-and-refresh", ["auth"], async ctx => {
  const auth = ctx.auth(ctx.app());
  const states = [];
  const unsub = onAuthStateChanged(auth, u => states.push(u ? "in" : "out"));
  await waitFor(() => states.length >= 1, 5000, "initial state");
  const cred = await signInAnonymously(auth);
  await waitFor(() => states.at(-1) === "in", 5000, "signed-in state");
  const first = await cred.user.getIdToken();
  await new Promise(r => setTimeout(r, 1100));
  const refreshed = await cred.user.getIdToken(true);
  ok(refreshed !== first, "getIdToken(true) returned a new token");
  await signOut(auth);
  await waitFor(() => states.at(-1) === "out", 5000, "signed-out state");
  unsub();
  eq(states, ["out", "in", "out"], "states");
});

add("firestore-uid-rule", ["auth"], async ctx => {
  const r = await ctx.rules(`rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /owned/{uid}/{rest=**} { allow read, write: if request.auth != null && request.auth.uid == uid; }
  }
}`);
  eq(r.status, 200, "PUT rules");
  const app = ctx.app();
  const auth = ctx.auth(app);
  const db = ctx.firestore(app);
  await rejects(getDocFromServer(doc(db, "owned/nobody/x/y")), "permission-denied", "signed out");
  const { user } = await signInAnonymously(auth);
  await setDoc(doc(db, `owned/${user.uid}/x/y`), { v: 1 });
  eq((await getDocFromServer(doc(db, `owned/${user.uid}/x/y`))).data(), { v: 1 }, "own doc");
  await rejects(getDocFromServer(doc(db, "owned/someone-else/x/y")), "permission-denied", "other uid");
});

add("callable-sendMessage", ["auth", "functions"], async ctx => {
  const app = ctx.app();
  const auth = ctx.auth(app);
  const send = httpsCallable(ctx.functions(app), "sendMessage");
  await rejects(send({ text: "hi", kind: "shout", lat: 1, lng: 1 }), "functions/unauthenticated", "signed out");
  await signInAnonymously(auth);
  await rejects(send({ text: "", kind: "shout", lat: 1, lng: 1 }), "functions/invalid-argument", "empty text");
  await rejects(send({ text: "hi", kind: "yell", lat: 1, lng: 1 }), "functions/invalid-argument", "bad kind");
  await rejects(send({ text: "hi", kind: "whisper", lat: 91, lng: 1 }), "functions/invalid-argument", "bad lat");
  // A random spot, so no earlier run's sender is near enough to receive it.
  const spot = (span, offset) => Math.round((Math.random() * span - offset) * 1e4) / 1e4;
  const lat = spot(120, 60), lng = spot(340, 170);
  const res = await send({ text: "hello from the browser", kind: "whisper", lat, lng });
  ok(typeof res.data.messageId === "string" && res.data.messageId.length > 0, `messageId ${JSON.stringify(res.data)}`);
  eq(res.data.recipientCount, 0, "recipientCount");
});

// An unsigned Google ID token as the Auth emulator takes one (alg none; the emulator does not
// verify Google's signature): what GoogleAuthProvider.credential(idToken) carries.
function googleIdToken(sub, email, name) {
  const b64 = o => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: "none", typ: "JWT" })}.${b64({
    iss: "https://accounts.google.com", aud: "web-client", sub, email, email_verified: true, name,
    iat: now, exp: now + 3600,
  })}.`;
}

add("google-credential", ["auth"], async ctx => {
  // The app signs in as Google Sign-In hands it an ID token (docs/app/shouts-and-whispers.md §2).
  const auth = ctx.auth(ctx.app());
  const sub = `g${unique()}`;
  const cred = await signInWithCredential(
    auth, GoogleAuthProvider.credential(googleIdToken(sub, `${sub}@example.com`, "Ada")));
  eq([cred.user.email, cred.user.displayName, cred.user.providerData[0].providerId],
    [`${sub}@example.com`, "Ada", "google.com"], "user");
  const again = await signInWithCredential(
    ctx.auth(ctx.app()), GoogleAuthProvider.credential(googleIdToken(sub, `${sub}@example.com`, "Ada")));
  eq(again.user.uid, cred.user.uid, "the same Google account is the same user");
});

// A 9-character geohash of (lat, lng), as geofire-common's geohashForLocation computes it.
function geohash(lat, lng, precision = 9) {
  const base32 = "0123456789bcdefghjkmnpqrstuvwxyz";
  let [latMin, latMax, lngMin, lngMax] = [-90, 90, -180, 180];
  let hash = "", bits = 0, value = 0, even = true;
  while (hash.length < precision) {
    if (even) {
      const mid = (lngMin + lngMax) / 2;
      if (lng > mid) { value = value * 2 + 1; lngMin = mid; } else { value *= 2; lngMax = mid; }
    } else {
      const mid = (latMin + latMax) / 2;
      if (lat > mid) { value = value * 2 + 1; latMin = mid; } else { value *= 2; latMax = mid; }
    }
    even = !even;
    if (++bits === 5) { hash += base32[value]; bits = 0; value = 0; }
  }
  return hash;
}

add("shouts-flow", ["auth", "functions"], async ctx => {
  // Shouts & Whispers end to end under the app's own rules: two users sign in with Google, the
  // listener heartbeats its presence and watches its feed, the other whispers 40 m away
  // (docs/app/shouts-and-whispers.md §3, §4, §6).
  const rules = await (await fetch("/app-rules")).text();
  eq((await ctx.rules(rules)).status, 200, "PUT the app's rules");
  const spot = (span, offset) => Math.round((Math.random() * span - offset) * 1e4) / 1e4;
  const lat = spot(100, 50), lng = spot(340, 170);
  const listenerApp = ctx.app(), senderApp = ctx.app();
  const listener = (await signInWithCredential(ctx.auth(listenerApp),
    GoogleAuthProvider.credential(googleIdToken(`l${unique()}`, `l${unique()}@example.com`, "Lis")))).user;
  await signInWithCredential(ctx.auth(senderApp),
    GoogleAuthProvider.credential(googleIdToken(`s${unique()}`, `s${unique()}@example.com`, "Sam")));
  const db = ctx.firestore(listenerApp);
  // The heartbeat: a merge of {lat, lng, geohash, updatedAt} with updatedAt the server time.
  await setDoc(doc(db, `presence/${listener.uid}`),
    { lat, lng, geohash: geohash(lat, lng), updatedAt: serverTimestamp() }, { merge: true });
  await rejects(setDoc(doc(db, `presence/${listener.uid}`), { lat, lng, updatedAt: new Date(0) }, { merge: true }),
    "permission-denied", "a heartbeat with a client time");
  await rejects(getDocFromServer(doc(db, `presence/${listener.uid}`)), "permission-denied", "presence is unreadable");
  const feed = [];
  const unsub = onSnapshot(query(collection(db, `users/${listener.uid}/feed`), orderBy("sentAt", "desc")),
    s => feed.push(s.docs.map(d => d.data())));
  await waitFor(() => feed.length >= 1, 10000, "the feed's first snapshot");
  const send = httpsCallable(ctx.functions(senderApp), "sendMessage");
  const res = await send({ text: "psst", kind: "whisper", lat: lat + 0.00036, lng });
  eq(res.data.recipientCount, 1, "recipientCount");
  await waitFor(() => feed.at(-1).length === 1, 10000, "the whisper in the listener's feed");
  unsub();
  const [entry] = feed.at(-1);
  eq([entry.text, entry.kind, entry.isOwn, entry.senderName, entry.messageId],
    ["psst", "whisper", false, "Sam", res.data.messageId], "feed entry");
  ok(entry.distanceM > 30 && entry.distanceM < 50, `distanceM ${entry.distanceM}`);
});
