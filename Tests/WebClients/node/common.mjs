// Shared by the Node web-clients suites: where the Firestore emulator is, the REST calls every
// emulator answers (load rules, clear documents), and the SDK-or-skip guard.
//
// Environment: FIRESTORE_EMULATOR_HOST (host:port, required), HEARTH_WC_PROJECT (project id;
// each suite has its own default).

import { sdkRequire, SKIP_MESSAGE } from './sdk_root.mjs';

/** The SDK's require, or prints the skip line and exits 0. */
export function requireSdkOrSkip() {
  const sdk = sdkRequire();
  if (sdk === null) {
    console.log(SKIP_MESSAGE);
    process.exit(0);
  }
  return sdk;
}

/** { host, port } of FIRESTORE_EMULATOR_HOST; exits 2 when unset. */
export function firestoreTarget() {
  const value = process.env.FIRESTORE_EMULATOR_HOST;
  if (!value) {
    console.error('FIRESTORE_EMULATOR_HOST is not set (host:port of the Firestore emulator)');
    process.exit(2);
  }
  const at = value.lastIndexOf(':');
  return { host: value.slice(0, at), port: Number(value.slice(at + 1)) };
}

function base() {
  const { host, port } = firestoreTarget();
  return `http://${host}:${port}`;
}

/** Replaces the project's rules (PUT …:securityRules, as firebase-tools does). */
export async function putRules(project, source) {
  const response = await fetch(`${base()}/emulator/v1/projects/${project}:securityRules`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: source }] } }),
  });
  if (!response.ok) throw new Error(`loading rules: HTTP ${response.status} ${await response.text()}`);
}

/** Deletes every document of the project's default database. */
export async function clearDocuments(project) {
  const url = `${base()}/emulator/v1/projects/${project}/databases/(default)/documents`;
  const response = await fetch(url, { method: 'DELETE' });
  if (!response.ok) throw new Error(`clearing documents: HTTP ${response.status}`);
}

/** Resolves once predicate() holds, polling; rejects after timeoutMs. */
export async function waitFor(predicate, timeoutMs = 10000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
