// Runs the cases of cases_*.js one after another, each with a fresh project id, and posts each
// verdict to the static server (run_browser.py). Config comes from /config.json.
import { initializeApp, deleteApp } from "https://www.gstatic.com/firebasejs/10.11.1/firebase-app.js";
import * as full from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore.js";
import * as lite from "https://www.gstatic.com/firebasejs/10.11.1/firebase-firestore-lite.js";
import { getAuth, connectAuthEmulator } from "https://www.gstatic.com/firebasejs/10.11.1/firebase-auth.js";
import {
  getFunctions, connectFunctionsEmulator,
} from "https://www.gstatic.com/firebasejs/10.11.1/firebase-functions.js";
import { cases as firestoreCases } from "./cases_firestore.js";
import { cases as liteCases } from "./cases_lite.js";
import { cases as authCases } from "./cases_auth.js";

const config = await (await fetch("/config.json")).json();
const post = (path, body) => fetch(path, { method: "POST", body: JSON.stringify(body) }).then(r => r.json());
const log = text => { document.getElementById("out").textContent += text + "\n"; post("/log", { text }); };
const CASE_TIMEOUT_MS = 30000;
const OPEN_RULES = `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents { match /{document=**} { allow read, write: if true; } }
}`;

function settingsFor(transport) {
  if (transport === "long-polling") return { experimentalForceLongPolling: true };
  if (transport === "auto-detect") return { experimentalAutoDetectLongPolling: true };
  return {};
}

function hostPort(s) { const i = s.lastIndexOf(":"); return [s.slice(0, i), Number(s.slice(i + 1))]; }

let appCounter = 0;
function makeContext(c, index) {
  const project = c.needs && c.needs.length ? config.project : `wc-${config.run}-${index}`;
  const apps = [], dbs = [];
  const [fsHost, fsPort] = hostPort(config.firestore);
  const app = (projectId = project) => {
    const a = initializeApp({ projectId, apiKey: "fake-api-key", appId: "1:1:web:1" }, `app${++appCounter}`);
    apps.push(a);
    return a;
  };
  return {
    name: c.name, project, log, config,
    // A full-SDK Firestore in its own app, on the run's transport.
    firestore(a = app()) {
      const db = full.initializeFirestore(a, settingsFor(config.transport));
      full.connectFirestoreEmulator(db, fsHost, fsPort);
      dbs.push({ db, sdk: full });
      return db;
    },
    lite(a = app()) {
      const db = lite.getFirestore(a);
      lite.connectFirestoreEmulator(db, fsHost, fsPort);
      dbs.push({ db, sdk: lite });
      return db;
    },
    app,
    auth(a) {
      const auth = getAuth(a);
      connectAuthEmulator(auth, `http://${config.auth}`, { disableWarnings: true });
      return auth;
    },
    functions(a) {
      const f = getFunctions(a);
      const [h, p] = hostPort(config.functions);
      connectFunctionsEmulator(f, h, p);
      return f;
    },
    rules: text => post("/rules", { project, rules: text }),
    async cleanup() {
      for (const { db, sdk } of dbs) { try { await sdk.terminate(db); } catch (e) { } }
      for (const a of apps) { try { await deleteApp(a); } catch (e) { } }
    },
  };
}

function withTimeout(promise, ms) {
  let timer;
  const timeout = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const lite_run = config.transport === "lite";
const all = [...firestoreCases, ...liteCases, ...authCases];
let index = 0;
for (const c of all) {
  index++;
  if (config.only && c.name !== config.only) continue;
  if ((c.kind === "lite") !== lite_run) continue;
  if (c.transports && !c.transports.includes(config.transport)) continue;
  const missing = (c.needs || []).filter(n => !config[n]);
  if (missing.length) {
    await post("/result", { case: c.name, verdict: "skip", detail: `needs --${missing.join(", --")}` });
    continue;
  }
  const ctx = makeContext(c, index);
  await post("/begin", { case: c.name, project: ctx.project });
  // Fresh projects start open whatever rules the server was started with (cases that test
  // rules PUT their own); the Auth/Functions project keeps the server's.
  if (!(c.needs && c.needs.length)) await ctx.rules(OPEN_RULES);
  let verdict = "pass", detail = "";
  try {
    const r = await withTimeout(c.run(ctx), CASE_TIMEOUT_MS);
    if (r !== undefined) detail = typeof r === "string" ? r : JSON.stringify(r);
  } catch (e) {
    verdict = "fail";
    detail = (e && (e.code ? `${e.code}: ` : "") + (e.message || String(e))) || String(e);
  }
  await withTimeout(ctx.cleanup(), 10000).catch(() => {});
  log(`${verdict} ${c.name} ${detail}`);
  await post("/result", { case: c.name, verdict, detail });
}
await post("/done", {});
