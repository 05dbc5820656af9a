// Locates the Firebase JS SDK the web-clients suites run with (same convention as
// Tests/WebClients/sdk_root.py): $HEARTH_JS_SDK if set, else ~/.cache/hearth/js-sdk; the
// folder holds node_modules/ as `npm ci --prefix <dir>` left it. Nothing of it is committed.
//
//   import { sdkRequire, sdkRoot, SKIP_MESSAGE } from './sdk_root.mjs';
//   const sdk = sdkRequire();            // null when absent: print SKIP_MESSAGE, exit 0
//   const { initializeApp } = sdk('firebase/app');

import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SDK_VERSION = '10.11.1';
export const SKIP_MESSAGE =
  `skip: Firebase JS SDK ${SDK_VERSION} not found at $HEARTH_JS_SDK or ~/.cache/hearth/js-sdk ` +
  '(install with: npm ci --prefix <dir> using Tests/WebClients/package.json)';

/** The SDK folder (holding node_modules/firebase at the pinned version), or null. */
export function sdkRoot() {
  const root = process.env.HEARTH_JS_SDK || join(homedir(), '.cache', 'hearth', 'js-sdk');
  const manifest = join(root, 'node_modules', 'firebase', 'package.json');
  if (!existsSync(manifest)) return null;
  try {
    if (JSON.parse(readFileSync(manifest, 'utf8')).version !== SDK_VERSION) return null;
  } catch {
    return null;
  }
  return root;
}

/** A `require` resolving from the SDK's node_modules, or null when the SDK is absent. */
export function sdkRequire() {
  const root = sdkRoot();
  return root === null ? null : createRequire(join(root, 'node_modules', 'noop.js'));
}
