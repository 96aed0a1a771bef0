/**
 * A small typed layer over Trove's public HTTP and WebSocket API (the routes the official clients
 * call, docs/CLIENTS.md), the only way the app reaches Trove. The API key, when Trove requires
 * one, lives in sessionStorage and travels in a header (over WebSockets, as a subprotocol): never
 * in a URL.
 */
import type {
  Asset,
  Conversation,
  ConversationMessage,
  Model,
  Application,
  SearchHit,
  RelevantSeed,
  StoreLabel,
} from './types';

const KEY_STORAGE = 'trove.apiKey';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let keyListeners: Array<() => void> = [];

export function apiKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function setApiKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage disabled: the key lasts as long as the page */
  }
  memoryKey = key;
  for (const listener of keyListeners) listener();
}
let memoryKey: string | null = null;

/**
 * The shared space of a team deployment the app works in (its name; null: the user's own
 * store): every request carries it as `X-Trove-Space`, the streams as a subprotocol.
 */
let currentSpace: string | null = null;
export function setSpace(space: string | null): void {
  if (space === currentSpace) return;
  currentSpace = space;
  for (const listener of keyListeners) listener();
}

/** Called when the key or the space changes (the streams reconnect with it). */
export function onKeyChange(listener: () => void): () => void {
  keyListeners.push(listener);
  return () => (keyListeners = keyListeners.filter((l) => l !== listener));
}
const unauthorized = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorized.add(listener);
  return () => unauthorized.delete(listener);
}

/** The CSRF token of a signed-in web session (GET /auth/session): every unsafe request sends it. */
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

function headers(extra: Record<string, string> = {}, method = 'GET'): Record<string, string> {
  const key = apiKey() ?? memoryKey;
  const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
  return {
    accept: 'application/json',
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...(unsafe && csrfToken ? { 'x-csrf-token': csrfToken } : {}),
    ...(currentSpace ? { 'x-trove-space': currentSpace } : {}),
    ...extra,
  };
}

/** What GET /auth/session says: signed in or not, and whether this Trove signs people in (OpenID Connect). */
export interface AuthSession {
  signedIn: boolean;
  user: { name: string; admin: boolean } | null;
  csrf: string | null;
  signIn: boolean;
  issuer: string | null;
}

/** GET /auth/session; null when this Trove has no sign-in routes. */
export async function authSession(): Promise<AuthSession | null> {
  try {
    const response = await fetch('/auth/session', {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('json')) return null;
    const session = (await response.json()) as AuthSession;
    setCsrfToken(session.csrf);
    return session;
  } catch {
    return null;
  }
}

/** POST /auth/logout with the session's CSRF token. */
export async function signOut(): Promise<void> {
  const response = await fetch('/auth/logout', {
    method: 'POST',
    headers: headers({}, 'POST'),
    credentials: 'same-origin',
  });
  if (!response.ok) throw await errorOf(response);
  setCsrfToken(null);
}

/** The one sentence of a Trove error body (`{statusCode, error, message}`). */
async function errorOf(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = (await response.json()) as { message?: string | string[] };
    if (body.message) message = Array.isArray(body.message) ? body.message.join('; ') : body.message;
  } catch {
    /* not JSON */
  }
  if (response.status === 401) {
    for (const listener of unauthorized) listener();
    return new ApiError(401, apiKey() ? 'That API key is not valid here.' : 'This Trove requires an API key.');
  }
  return new ApiError(response.status, message);
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  extra: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: headers({ ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra }, method),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw await errorOf(response);
  if (response.status === 204) return undefined as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('json') ? await response.json() : await response.text()) as T;
}

/**
 * Records this page knows are deleted (it is deleting them, or a change stream said so): reading
 * one again answers like Trove's 410 without asking it, and a delete aborts the reads of its record
 * still under way. A read racing a delete (a refetch the stream's frame started, a slow read of the
 * snippet's activity) would otherwise come back 410 and be logged as a failed load.
 */
const deleted = new Set<string>();
const reading = new Map<string, Set<AbortController>>();
export function markDeleted(id: string): void {
  deleted.add(id);
  for (const read of reading.get(id) ?? []) read.abort();
}
function unlessDeleted<T>(id: string, what: string, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (deleted.has(id)) return Promise.reject(new ApiError(410, `${what} ${id} no longer exists`));
  const controller = new AbortController();
  const reads = reading.get(id) ?? new Set<AbortController>();
  reading.set(id, reads.add(controller));
  return read(controller.signal).finally(() => {
    reads.delete(controller);
    if (!reads.size) reading.delete(id);
  });
}
/** Deletes a record: its reads stop first; if the delete fails, it may be read again. */
async function deleteRecord(id: string, path: string): Promise<string> {
  markDeleted(id);
  try {
    return await request<string>('POST', path);
  } catch (error) {
    deleted.delete(id);
    throw error;
  }
}

export interface Page<T> {
  iterable: T[];
  next_cursor: string | null;
}

export const api = {
  version: () => request<string>('GET', '/.well-known/version'),
  health: () => request<string>('GET', '/.well-known/health'),

  assetsPage: (cursor: string | null, limit: number, signal?: AbortSignal) =>
    request<Page<Asset>>(
      'GET',
      `/assets?limit=${limit}&transferables=false${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      signal,
    ),
  asset: (id: string) =>
    unlessDeleted(id, 'asset', (signal) =>
      request<Asset>('GET', `/asset/${encodeURIComponent(id)}?transferables=true`, undefined, signal),
    ),
  /** `everywhere`: in the user's own store and every space they belong to (`X-Trove-Space: *`), each hit labelled. */
  search: (query: string, filters: { language?: string; tag?: string }, signal?: AbortSignal, everywhere = false) => {
    const iterable = [
      ...(filters.language ? [{ classification: filters.language }] : []),
      ...(filters.tag ? [{ tags: [filters.tag] }] : []),
    ];
    return request<{ results: { iterable: SearchHit[] } }>(
      'POST',
      '/assets/search?transferables=false',
      { ...(query.trim() ? { query } : {}), ...(iterable.length ? { filters: { iterable } } : {}) },
      signal,
      everywhere ? { 'x-trove-space': '*' } : {},
    ).then((r) => r.results.iterable);
  },
  /** The stores this user may read: their own, then their spaces (team deployments). */
  stores: () => request<{ iterable: StoreLabel[]; team: boolean }>('GET', '/trove/spaces'),
  copyToSpace: (id: string, space: string) =>
    request<{ asset: Asset; space: StoreLabel }>('POST', `/asset/${encodeURIComponent(id)}/copy`, { space }),
  related: (id: string) =>
    unlessDeleted(id, 'asset', (signal) =>
      request<{ iterable: Asset[] }>('POST', '/assets/related', { iterable: [{ id }] }, signal),
    ).then((r) => r.iterable),
  activities: (id: string) =>
    unlessDeleted(id, 'asset', (signal) =>
      request<{
        iterable: Array<{
          id: string;
          event?: Record<string, unknown>;
          created: { value: string };
          application?: Application;
        }>;
      }>('GET', `/asset/${encodeURIComponent(id)}/activities`, undefined, signal),
    ).then((r) => r.iterable),
  createAsset: (raw: string, application: Application | null) =>
    request<Asset>('POST', '/assets/create', {
      type: 'SEEDED_ASSET',
      asset: { ...(application ? { application } : {}), format: { fragment: { string: { raw } } } },
    }),
  /** POST /asset/update takes the changed fields of a round-tripped asset: name, tags, the first format's text. */
  updateAsset: (edit: { id: string; name?: string; tags?: string[]; format?: { id: string; raw: string } }) =>
    request<Asset>('POST', '/asset/update?transferables=true', {
      id: edit.id,
      ...(edit.name !== undefined ? { name: edit.name } : {}),
      ...(edit.tags ? { tags: { iterable: edit.tags.map((text) => ({ text })) } } : {}),
      ...(edit.format
        ? { formats: { iterable: [{ id: edit.format.id, fragment: { string: { raw: edit.format.raw } } }] } }
        : {}),
    }),
  deleteAsset: (id: string) => deleteRecord(id, `/assets/${encodeURIComponent(id)}/delete`),

  conversations: () => request<Page<Conversation>>('GET', '/conversations?limit=200').then((r) => r.iterable),
  conversation: (id: string) =>
    unlessDeleted(id, 'conversation', (signal) =>
      request<Conversation>('GET', `/conversation/${encodeURIComponent(id)}`, undefined, signal),
    ),
  messages: (id: string) =>
    unlessDeleted(id, 'conversation', (signal) =>
      request<{ iterable: ConversationMessage[] }>(
        'GET',
        `/conversation/${encodeURIComponent(id)}/messages`,
        undefined,
        signal,
      ),
    ).then((r) => r.iterable),
  renameConversation: (conversation: Conversation, name: string) =>
    request<Conversation>('POST', '/conversation/update', { ...conversation, name }),
  deleteConversation: (id: string) => deleteRecord(id, `/conversations/${encodeURIComponent(id)}/delete`),
  /** A new chat grounded in one snippet (Drive's "Ask Copilot about this"). */
  chatAbout: (assetId: string) =>
    request<{ conversation: Conversation }>(
      'POST',
      `/conversations/create/from_asset/${encodeURIComponent(assetId)}`,
    ).then((r) => r.conversation),
  relevance: (query: string) =>
    request<{ relevant: { iterable: RelevantSeed[] } }>('POST', '/qgpt/relevance', {
      query,
      options: { database: true },
    }).then((r) => r.relevant.iterable),

  models: () => request<{ iterable: Model[] }>('GET', '/models').then((r) => r.iterable),
  applications: () => request<{ iterable: Application[] }>('GET', '/applications').then((r) => r.iterable),
};

/** Export: a direct download when no key is needed, else fetched with the key and saved from memory. */
export async function exportStore(): Promise<void> {
  const response = await fetch('/trove/export', { headers: headers({ accept: 'application/x-ndjson' }) });
  if (!response.ok) throw await errorOf(response);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `trove-export-${new Date().toISOString().slice(0, 10)}.ndjson`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type ImportFormat = 'ndjson' | 'vscode' | 'masscode';

/** Import with upload progress (XMLHttpRequest: fetch reports none). */
export function importStore(
  file: File,
  format: ImportFormat,
  onProgress: (fraction: number) => void,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = new URLSearchParams({ format, ...(format === 'vscode' ? { name: file.name } : {}) });
    xhr.open('POST', `/trove/import?${query}`);
    for (const [name, value] of Object.entries(
      headers({ 'content-type': format === 'ndjson' ? 'application/x-ndjson' : 'application/octet-stream' }, 'POST'),
    )) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let body: { message?: string | string[] } & Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else
        reject(
          new ApiError(
            xhr.status,
            Array.isArray(body.message) ? body.message.join('; ') : (body.message ?? `import failed (${xhr.status})`),
          ),
        );
    };
    xhr.onerror = () => reject(new ApiError(0, 'the upload was interrupted'));
    xhr.send(file);
  });
}

/** A WebSocket to Trove on this origin, carrying the key as the `trove.key.<base64url>` subprotocol. */
export function openSocket(path: string): WebSocket {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
  const key = apiKey() ?? memoryKey;
  const protocols = [
    ...(key ? [`trove.key.${base64url(key)}`] : []),
    ...(currentSpace ? [`trove.space.${base64url(currentSpace)}`] : []),
  ];
  return protocols.length ? new WebSocket(url, ['trove', ...protocols]) : new WebSocket(url);
}

function base64url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
