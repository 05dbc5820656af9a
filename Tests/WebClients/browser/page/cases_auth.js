// Auth and callable cases: Hearth only (the official Firestore emulator has no Auth or Functions
// emulator). They run in config.project, the project --auth/--functions serve, and are skipped
// when those flags are absent.
import {
  signInAnonymously, createUserWithEmailAndPassword, signInWithEmailAndPassword, signOut,
  onAuthStateChanged,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-auth.js";
import { httpsCallable } from "https://www.gstatic.com/firebasejs/10.11.1/firebase-functions.js";
import { doc, setDoc, getDocFromServer } from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore.js";
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
