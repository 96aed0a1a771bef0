import type { INestApplicationContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

/** What a store's app records of a request in the audit log (the team front adds who, when and where). */
export interface AuditRecord {
  action: string;
  method: string;
  route: string;
  record: string | null;
  status: number;
  /** The store the action changed when it is not the request's (a copy into a space). */
  store?: string;
}

/** Where a record of a look across stores comes from: the caller's own store, or a shared space. */
export interface StoreLabel {
  /** The space's id; null for the caller's own store. */
  space: string | null;
  /** The space's name; `mine` for the caller's own store. */
  name: string;
  role: 'owner' | 'reader' | 'editor';
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
  /**
   * `X-Trove-Space: *`: the request works in the caller's own store, and its searches look in
   * every shared space the caller belongs to as well (each result labelled with its store).
   */
  everywhere: boolean;
  /**
   * Null while the store the request works in may grow; else the sentence a write is refused
   * with (TROVE_USER_QUOTA_MB): what MCP's saving tools check, the front having let the MCP
   * request through (it cannot tell their reads from their writes).
   */
  quotaRefusal(): Promise<string | null>;
  /** The stores the caller may read, labelled: their own first, then each space they belong to by name. */
  stores(): StoreLabel[];
  /**
   * Runs `work` with the app of each store the caller may read: their own first, then each space
   * they belong to (opened if need be, kept open while `work` runs). A store whose work fails is
   * left out of the answer (and logged): one broken space does not hide the others.
   */
  inEachStore<T>(work: (app: INestApplicationContext) => Promise<T>): Promise<Array<{ store: StoreLabel; value: T }>>;
  /**
   * Runs `work` with the app of the space named (its name or id); a NotFound error when the
   * caller does not belong to it, Forbidden when `write` and they are one of its readers.
   */
  inSpace<T>(
    space: string,
    write: boolean,
    work: (app: INestApplicationContext, label: StoreLabel, store: string) => Promise<T>,
  ): Promise<T>;
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

/**
 * Reads and searches that use POST: a space's readers may send them, and they are not written to
 * the audit log (but a copy out of a store, which changes only the space it goes to, is).
 */
const READ_POST =
  /^\/(?:asset\/[^/]+\/copy$|assets\/search|search\/|qgpt\/(?:relevance|question|hints|reprompt|persons)|workstream_summaries\/search|[^/]+\/suggestions?\b)/;

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
  if (method === 'POST' && /\/copy\b/.test(route)) return 'copy';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (readOnlyRequest(method, route) || /^\/model_context_protocol\//.test(route)) return null;
  if (/import/.test(route)) return 'import';
  if (method === 'DELETE' || /delete/.test(route)) return 'delete';
  if (/create|^\/[a-z_]+s$/.test(route) && method === 'POST') return 'create';
  if (/update|rename|reclassify/.test(route) || method === 'PUT' || method === 'PATCH') return 'update';
  return 'change';
}

/**
 * The answers of one search run in several stores as one list, best first, each item labelled
 * with the store it comes from (`space`). Every store ranks with the same engine and scores in
 * the same range, so the scores are compared as they are; a tie keeps the stores' order (the
 * caller's own first) and each store's own order.
 */
export function mergeAcrossStores<T extends object>(
  answers: Array<{ store: StoreLabel; value: T[] }>,
  score: (item: T) => number,
  limit = Number.POSITIVE_INFINITY,
): Array<T & { space: StoreLabel }> {
  return answers
    .flatMap(({ store, value }, s) =>
      value.map((item, rank) => ({ item: { ...item, space: store }, s, rank, score: score(item) })),
    )
    .sort((a, b) => b.score - a.score || a.s - b.s || a.rank - b.rank)
    .slice(0, limit)
    .map((entry) => entry.item);
}
