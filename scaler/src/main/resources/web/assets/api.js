// Calls the scaler's REST API, same origin. Errors keep the API's own {error, field} and status, so
// the page can show a refusal as the scaler worded it.

const TOKEN = 'kcscale.token';

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

async function call(method, path, body) {
  const headers = {Accept: 'application/json'};
  const token = sessionStorage.getItem(TOKEN);
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, json?.error ?? `HTTP ${response.status}`, json?.field);
  }
  return json;
}

export const getJson = path => call('GET', path);
export const postJson = (path, body) => call('POST', path, body);

export function connectorPath(name, suffix = '') {
  return `/api/v1/connectors/${encodeURIComponent(name)}${suffix}`;
}
