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
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 64)) throw bad();
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
export async function keysetPage(db: Database, em: EntityManager, source: KeysetSource, after: Keyset | null, limit: number): Promise<KeyedRow[]> {
  const n = Math.max(1, Math.floor(limit));
  if (!after) {
    return db.query<KeyedRow>(em, `SELECT id, created_at FROM ${source.table} WHERE ${source.where} ORDER BY created_at DESC, id DESC LIMIT ${n}`);
  }
  const [p1, p2, p3] = [db.param(1), db.param(2), db.param(3)];
  return db.query<KeyedRow>(
    em,
    `SELECT id, created_at FROM ${source.table} WHERE ${source.where} AND created_at <= ${p1} AND (created_at < ${p2} OR id < ${p3})
      ORDER BY created_at DESC, id DESC LIMIT ${n}`,
    [after.createdAt, after.createdAt, after.id],
  );
}

/**
 * Every row of `source`, most recent first, a page at a time, each page read in its own short
 * read (other requests run between pages, and a paused consumer holds no transaction open).
 * Rows created during the walk are newer than its position and not listed; rows deleted before
 * the walk reaches them are not listed either. Pages are read only as the consumer asks.
 */
export async function* keysetWalk(db: Database, source: KeysetSource, pageSize: number, from: Keyset | null = null): AsyncGenerator<KeyedRow[]> {
  let after = from;
  for (;;) {
    const rows = await db.read((em) => keysetPage(db, em, source, after, pageSize));
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageSize) return;
    after = keyOf(rows[rows.length - 1]);
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
