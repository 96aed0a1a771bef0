import { EntityManager } from 'typeorm';
import { InvalidInput } from '../errors/domain-errors';
import { Database } from './database.service';

/**
 * A position in a listing ordered most recent first: `created_at DESC, id DESC` (the order of
 * every collection snapshot). `created_at` is the ISO text the tables store, so positions
 * compare exactly on SQLite and PostgreSQL alike.
 */
export interface Keyset {
  createdAt: string;
  id: string;
}

/** A row of a keyset page: the id and the position it is at. */
export interface KeyedRow {
  id: string;
  created_at: string;
}

export const keyOf = (row: KeyedRow): Keyset => ({ createdAt: row.created_at, id: row.id });

/** The opaque text of a position (`cursor` of the paged listings). */
export function encodeKeyset(key: Keyset): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id])).toString('base64url');
}

/** The position a cursor names; a cursor that is not one of ours is a 400. */
export function decodeKeyset(cursor: string): Keyset {
  const bad = () => new InvalidInput('cursor must be the next_cursor of an earlier page, unchanged');
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw bad();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 64)
  )
    throw bad();
  return { createdAt: value[0] as string, id: value[1] as string };
}

/** The rows of one listing table a keyset walk reads. */
export interface KeysetSource {
  /** Table name (a constant of the code, never input). */
  table: string;
  /** Extra condition on the table's rows (a constant of the code), e.g. `deleted_at IS NULL`. */
  where: string;
}

/**
 * One page of `source`: ids and positions of at most `limit` rows after `after` (from the most
 * recent when null), most recent first. The condition `created_at <= ?` keeps to the range of
 * the `(deleted_at, created_at)` listing indexes; ties are broken on the id.
 */
export async function keysetPage(
  db: Database,
  em: EntityManager,
  source: KeysetSource,
  after: Keyset | null,
  limit: number,
): Promise<KeyedRow[]> {
  const { sql, params } = pageStatement(db, source, after, limit);
  return db.query<KeyedRow>(em, sql, params);
}

/** The statement of keysetPage: `id, created_at` of the page's rows, in order. */
function pageStatement(
  db: Database,
  source: KeysetSource,
  after: Keyset | null,
  limit: number,
): { sql: string; params: string[] } {
  const n = Math.max(1, Math.floor(limit));
  const order = 'ORDER BY created_at DESC, id DESC';
  if (!after)
    return { sql: `SELECT id, created_at FROM ${source.table} WHERE ${source.where} ${order} LIMIT ${n}`, params: [] };
  const [p1, p2, p3] = [db.param(1), db.param(2), db.param(3)];
  return {
    sql: `SELECT id, created_at FROM ${source.table} WHERE ${source.where} AND created_at <= ${p1} AND (created_at < ${p2} OR id < ${p3}) ${order} LIMIT ${n}`,
    params: [after.createdAt, after.createdAt, after.id],
  };
}

/**
 * The ids of keysetPage's page, and its last position (null when empty), in one row: the page's
 * ids come as the text of a JSON array the database builds, not as a row object each (a
 * listing of ids walks a million rows in a fraction of the time).
 */
export async function keysetIdPage(
  db: Database,
  em: EntityManager,
  source: KeysetSource,
  after: Keyset | null,
  limit: number,
): Promise<{ ids: string[]; last: Keyset | null }> {
  const { sql, params } = pageStatement(db, source, after, limit);
  // The page's last row is its oldest: the least created_at, and the least id among those.
  const [row] = await db.query<{ ids: string; oldest: string | null }>(
    em,
    `SELECT ${db.sql.jsonArrayAgg('id', 'created_at DESC, id DESC')} AS ids, min(created_at) AS oldest FROM (${sql}) page`,
    params,
  );
  const ids = JSON.parse(row.ids) as string[];
  return { ids, last: ids.length && row.oldest !== null ? { createdAt: row.oldest, id: ids[ids.length - 1] } : null };
}

/**
 * Every row of `source`, most recent first, a page at a time, each page read in its own short
 * read (other requests run between pages, and a paused consumer holds no transaction open).
 * Rows created during the walk are newer than its position and not listed; rows deleted before
 * the walk reaches them are not listed either. Pages are read only as the consumer asks.
 */
export function keysetWalk(db: Database, source: KeysetSource, pageSize: number): AsyncGenerator<KeyedRow[]> {
  return walkPages(pageSize, async (after) => {
    const rows = await db.read((em) => keysetPage(db, em, source, after, pageSize));
    return { items: rows, last: rows.length ? keyOf(rows[rows.length - 1]) : null };
  });
}

/** keysetWalk's ids only, each page read as keysetIdPage reads it. */
export function keysetWalkIds(db: Database, source: KeysetSource, pageSize: number): AsyncGenerator<string[]> {
  return walkPages(pageSize, async (after) => {
    const { ids, last } = await db.read((em) => keysetIdPage(db, em, source, after, pageSize));
    return { items: ids, last };
  });
}

/** The pages `read` answers from the most recent on, each after the last position of the one before, until a page is short. */
async function* walkPages<T>(
  pageSize: number,
  read: (after: Keyset | null) => Promise<{ items: T[]; last: Keyset | null }>,
): AsyncGenerator<T[]> {
  let after: Keyset | null = null;
  for (;;) {
    const { items, last } = await read(after);
    if (items.length === 0) return;
    yield items;
    if (items.length < pageSize || !last) return;
    after = last;
  }
}

/** One page for a client that pages (`limit`, `cursor`): its rows, and its last row when more follow (else null). */
export async function keysetSlice(
  db: Database,
  em: EntityManager,
  source: KeysetSource,
  after: Keyset | null,
  limit: number,
): Promise<{ rows: KeyedRow[]; last: KeyedRow | null }> {
  const rows = await keysetPage(db, em, source, after, limit + 1);
  if (rows.length <= limit) return { rows, last: null };
  rows.length = limit;
  return { rows, last: rows[limit - 1] };
}
