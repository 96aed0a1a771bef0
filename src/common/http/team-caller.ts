import type { IncomingMessage } from 'node:http';

/** What a store's app records of a request in the audit log (the team front adds who, when and where). */
export interface AuditRecord {
  action: string;
  method: string;
  route: string;
  record: string | null;
  status: number;
}

/**
 * Who a request of a team deployment comes from, set by the team front (src/teams) on the
 * request object itself before a store's app sees it: no header carries it, so no client can
 * claim to be someone else.
 */
export interface TeamCaller {
  userId: string;
  userName: string;
  admin: boolean;
  /** The store the request works in: the user's own, or a space's. */
  store: string;
  /** `owner` in the user's own store, else the role in the space. */
  role: 'owner' | 'reader' | 'editor';
  /** `/u/<token>` when the request came through the per-user base URL, else `''`: links the app gives back keep it. */
  basePath: string;
  /** Appends an entry for this request to the audit log. */
  audit(record: AuditRecord): void;
}

const CALLER = Symbol('trove.caller');

export function setCaller(request: IncomingMessage, caller: TeamCaller): void {
  (request as unknown as Record<symbol, TeamCaller>)[CALLER] = caller;
}

export function callerOf(request: IncomingMessage): TeamCaller | undefined {
  return (request as unknown as Record<symbol, TeamCaller | undefined>)[CALLER];
}

/** The path prefix the client reached this app under (see TeamCaller.basePath). */
export function basePathOf(request: IncomingMessage): string {
  return callerOf(request)?.basePath ?? '';
}

/** Reads and searches that use POST: not written to the audit log, and a space's readers may send them. */
const READ_POST = /^\/(?:assets\/search|search\/|qgpt\/(?:relevance|question|hints|reprompt|persons)|workstream_summaries\/search|[^/]+\/suggestions?\b)/;

/** The request reads only (a space's readers may send it). */
export function readOnlyRequest(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return !/\/(?:restart|terminate)$/.test(path);
  return method === 'POST' && READ_POST.test(path);
}

/**
 * The audit log's name for what a request did, from its method and route template, or null for
 * a read (reads are not audited): exports and imports, deletes, creates, updates, other changes.
 */
export function auditAction(method: string, route: string): string | null {
  if (/export/.test(route)) return 'export';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (readOnlyRequest(method, route) || /^\/model_context_protocol\//.test(route)) return null;
  if (/import/.test(route)) return 'import';
  if (method === 'DELETE' || /delete/.test(route)) return 'delete';
  if (/create|^\/[a-z_]+s$/.test(route) && method === 'POST') return 'create';
  if (/update|rename|reclassify/.test(route) || method === 'PUT' || method === 'PATCH') return 'update';
  return 'change';
}
