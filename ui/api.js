// Fetch wrappers for the UI's server API (same origin). Every function returns the parsed
// JSON answer or throws an Error whose message is the server's error text.

const OWNER = { Authorization: 'Bearer owner' }; // admin: bypasses security rules

/** An HTTP or network failure; `status` is the HTTP status (0 for network errors). */
export class ApiError extends Error {
  constructor(message, status = 0, body = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** The most useful message in an error body: Google `{error:{message}}`, `{message}`, text. */
function errorMessage(body, res) {
  if (body && typeof body === 'object') {
    const e = body.error;
    if (e && typeof e === 'object' && e.message) return e.status ? `${e.status}: ${e.message}` : String(e.message);
    if (typeof e === 'string') return e;
    if (body.message) return String(body.message);
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 500);
  return `${res.status} ${res.statusText}`;
}

export async function request(method, url, { body, owner = false } = {}) {
  const headers = owner ? { ...OWNER } : {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(`${method} ${url}: ${err.message} (is the emulator running?)`);
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; }
  }
  if (!res.ok) throw new ApiError(`${method} ${shortUrl(url)} failed: ${errorMessage(data, res)}`, res.status, data);
  return data;
}

function shortUrl(url) {
  return decodeURI(url.replace(/^\/api\/firestore\/v1\/projects\/[^/]+\/databases\/\(default\)\/documents/, '…'));
}

// ---------------------------------------------------------------------------------------
// Config

let configPromise = null;

/** `/api/config`, fetched once (again after a failure). */
export function getConfig() {
  if (!configPromise) {
    configPromise = request('GET', '/api/config').catch((err) => { configPromise = null; throw err; });
  }
  return configPromise;
}

async function projectId() {
  return encodeURIComponent((await getConfig()).projectId);
}

export const exportData = (path) => request('POST', '/api/export', { body: { path } });

// ---------------------------------------------------------------------------------------
// Firestore (REST v1 through /api/firestore, always as owner)

/** Percent-encodes each segment of a slash-joined relative path. */
function enc(path) {
  return path.split('/').filter(Boolean).map(encodeURIComponent).join('/');
}

async function docsBase() {
  return `/api/firestore/v1/projects/${await projectId()}/databases/(default)/documents`;
}

/** The full resource name of a relative document path. */
export async function resourceName(path) {
  return `projects/${(await getConfig()).projectId}/databases/(default)/documents/${path}`;
}

/**
 * One page of a collection's documents, in name order: `{documents, nextPageToken}`.
 * `namesOnly` asks for no fields (mask `__name__`): a page of large documents stays small.
 */
export async function listDocuments(collectionPath, { pageSize = 50, pageToken, showMissing = false, namesOnly = false } = {}) {
  const q = new URLSearchParams({ pageSize: String(pageSize) });
  if (namesOnly) q.set('mask.fieldPaths', '__name__');
  if (pageToken) q.set('pageToken', pageToken);
  if (showMissing) q.set('showMissing', 'true');
  const r = await request('GET', `${await docsBase()}/${enc(collectionPath)}?${q}`, { owner: true });
  return { documents: r?.documents || [], nextPageToken: r?.nextPageToken || null };
}

/** A document, or null when it does not exist. */
export async function getDocument(docPath) {
  try {
    return await request('GET', `${await docsBase()}/${enc(docPath)}`, { owner: true });
  } catch (err) {
    if (err.status === 404) return null;
    throw err;
  }
}

/** PATCH with an update mask (field path strings, already quoted); no mask = replace. */
export async function patchDocument(docPath, fields, maskPaths) {
  const q = new URLSearchParams();
  for (const p of maskPaths || []) q.append('updateMask.fieldPaths', p);
  const qs = q.toString();
  return request('PATCH', `${await docsBase()}/${enc(docPath)}${qs ? '?' + qs : ''}`, { owner: true, body: { fields } });
}

export async function deleteDocument(docPath) {
  return request('DELETE', `${await docsBase()}/${enc(docPath)}`, { owner: true });
}

/** Creates a document in a collection; no id = auto id. Returns the created document. */
export async function createDocument(collectionPath, id, fields = {}) {
  const qs = id ? `?documentId=${encodeURIComponent(id)}` : '';
  return request('POST', `${await docsBase()}/${enc(collectionPath)}${qs}`, { owner: true, body: { fields } });
}

/** Collection ids under a document path, or at the root for ''. Follows page tokens. */
export async function listCollectionIds(docPath = '') {
  const url = `${await docsBase()}${docPath ? '/' + enc(docPath) : ''}:listCollectionIds`;
  const ids = [];
  let pageToken;
  for (let i = 0; i < 100; i++) {
    const r = await request('POST', url, { owner: true, body: pageToken ? { pageToken } : {} });
    ids.push(...(r?.collectionIds || []));
    pageToken = r?.nextPageToken;
    if (!pageToken) break;
  }
  return ids;
}

/**
 * Runs a REST `StructuredQuery` under a document path ('' = the root): the documents it
 * returns, in query order (the stream's entries without a document are dropped).
 */
export async function runQuery(parentPath, structuredQuery) {
  const url = `${await docsBase()}${parentPath ? '/' + enc(parentPath) : ''}:runQuery`;
  const r = await request('POST', url, { owner: true, body: { structuredQuery } });
  return (Array.isArray(r) ? r : [r]).map((x) => x?.document).filter(Boolean);
}

/** Commits writes (at most 500) atomically. */
export async function commit(writes) {
  return request('POST', `${await docsBase()}:commit`, { owner: true, body: { writes } });
}

/** Deletes every document of the project's default database. */
export async function clearAllData() {
  return request('DELETE', `/api/firestore/emulator/v1/projects/${await projectId()}/databases/(default)/documents`, { owner: true });
}

// ---------------------------------------------------------------------------------------
// Auth (identitytoolkit through /api/auth, as owner)

async function accountsBase() {
  return `/api/auth/identitytoolkit.googleapis.com/v1/projects/${await projectId()}/accounts`;
}

/** One page of users: `{users, nextPageToken}`. */
export async function listUsers(pageToken, maxResults = 100) {
  const q = new URLSearchParams({ maxResults: String(maxResults) });
  if (pageToken) q.set('nextPageToken', pageToken);
  const r = await request('POST', `${await accountsBase()}:batchGet?${q}`, { owner: true, body: {} });
  return { users: r?.users || [], nextPageToken: r?.nextPageToken || null };
}

export async function addUser(user) {
  return request('POST', await accountsBase(), { owner: true, body: user });
}

export async function updateUser(changes) {
  return request('POST', `${await accountsBase()}:update`, { owner: true, body: changes });
}

export async function deleteUser(localId) {
  return request('POST', `${await accountsBase()}:delete`, { owner: true, body: { localId } });
}

async function authEmulatorBase() {
  return `/api/auth/emulator/v1/projects/${await projectId()}`;
}

/** Deletes every user of the project. */
export async function clearAllUsers() {
  return request('DELETE', `${await authEmulatorBase()}/accounts`);
}

/** The emulator's project settings: `{signIn: {allowDuplicateEmails}, …}`. */
export async function getAuthConfig() {
  return request('GET', `${await authEmulatorBase()}/config`);
}

/** Changes the members of the settings present in `patch` (e.g. `{signIn: {allowDuplicateEmails: true}}`). */
export async function updateAuthConfig(patch) {
  return request('PATCH', `${await authEmulatorBase()}/config`, { body: patch });
}

// ---------------------------------------------------------------------------------------
// Functions, requests, rules

export const getFunctions = () => request('GET', '/api/functions');

async function functionsBase() {
  return `/api/functions/emulator/v1/projects/${await projectId()}`;
}

/** The FCM outbox: `{messages, rejected}` — the pushes delivered and those FCM refused
 * (`{token, code, at}`; `messaging/registration-token-not-registered` = a token to forget). */
export async function getOutbox() {
  const r = await request('GET', `${await functionsBase()}/fcm/outbox`);
  return { messages: r?.messages || [], rejected: r?.rejected || [] };
}

export async function clearOutbox() {
  return request('DELETE', `${await functionsBase()}/fcm/outbox`);
}

export async function runFunction(name) {
  return request('POST', `${await functionsBase()}/functions/${encodeURIComponent(name)}:run`, { body: {} });
}

export const getRequests = async () => (await request('GET', '/api/requests'))?.requests || [];
export const clearRequests = () => request('DELETE', '/api/requests');
export const getRules = () => request('GET', '/api/rules');
