// Calls the scaler's REST API, same origin. Errors keep the API's own {error, field} and status, so
// the page can show a refusal as the scaler worded it.

const TOKEN = 'kcscale.token';
/** A read that hangs (a stalled connection, a proxy) fails after this long, so the page's refresh goes on. */
const READ_TIMEOUT_MS = 30_000;
/** A scale answers once its tasks run, which may take minutes. */
const WRITE_TIMEOUT_MS = 300_000;

export class ApiError extends Error {
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

/** Kept for the tab's life only: a bearer token should not outlive the session on disk. */
export function setToken(token) {
  sessionStorage.setItem(TOKEN, token);
}

async function call(method, path, body, timeoutMs) {
  const headers = {Accept: 'application/json'};
  const token = sessionStorage.getItem(TOKEN);
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs)});
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, json?.error ?? `HTTP ${response.status}`, json?.field);
  }
  return json;
}

export const getJson = path => call('GET', path, undefined, READ_TIMEOUT_MS);
export const postJson = (path, body) => call('POST', path, body, WRITE_TIMEOUT_MS);

export function connectorPath(name, suffix = '') {
  return `/api/v1/connectors/${encodeURIComponent(name)}${suffix}`;
}
