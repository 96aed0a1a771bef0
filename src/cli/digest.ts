import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import { SqliteFile } from './store';

/**
 * A digest of every row of every table of a store: per table its row count and an
 * order-independent hash of its rows (the sum, modulo 2^64, of the first 8 bytes of each row's
 * SHA-256; PostgreSQL: of each row's md5, summed in the server), and one checksum over all tables.
 * Taken from the same snapshot as the backup it describes, it proves that a copy restored later
 * holds exactly those rows. A digest compares with one of the same dialect only.
 */
export interface StoreDigest {
  dialect: 'sqlite' | 'postgres';
  /** Rows per table. */
  counts: Record<string, number>;
  /** Row hash per table (hex). */
  hashes: Record<string, string>;
  /** `sha256:<hex>` over every table's name, count and hash. */
  checksum: string;
}

function checksumOf(counts: Record<string, number>, hashes: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const table of Object.keys(counts).sort()) hash.update(`${table}\t${counts[table]}\t${hashes[table]}\n`);
  return `sha256:${hash.digest('hex')}`;
}

function finish(
  dialect: StoreDigest['dialect'],
  rows: Array<{ table: string; count: number; hash: string }>,
): StoreDigest {
  const counts: Record<string, number> = {};
  const hashes: Record<string, string> = {};
  for (const { table, count, hash } of rows.sort((a, b) => a.table.localeCompare(b.table))) {
    counts[table] = count;
    hashes[table] = hash;
  }
  return { dialect, counts, hashes, checksum: checksumOf(counts, hashes) };
}

const MOD = 1n << 64n;

/** A quoted SQL identifier. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The tables of a SQLite file whose rows make up the store: ordinary tables and the shadow tables
 * of the full-text indexes (their rows are the index), with sqlite_sequence (the AUTOINCREMENT
 * counters: stream event ids must not be handed out twice). Virtual tables and views have no rows
 * of their own.
 */
export async function sqliteTables(db: SqliteFile): Promise<Array<{ name: string; withoutRowid: boolean }>> {
  const rows = await db.all<{ name: string; type: string; wr: number }>(
    `SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'shadow')`,
  );
  return rows
    .filter((row) => !row.name.startsWith('sqlite_') || row.name === 'sqlite_sequence')
    .map((row) => ({ name: row.name, withoutRowid: row.wr === 1 }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The digest of a SQLite file, read in one transaction (one snapshot). Rows are hashed with their
 * rowid (full-text indexes refer to rows by rowid), as node-sqlite3 returns them.
 * `progress(done, total)` counts tables.
 */
export async function sqliteDigest(
  db: SqliteFile,
  progress?: (done: number, total: number) => void,
): Promise<StoreDigest> {
  await db.run('BEGIN');
  try {
    const tables = await sqliteTables(db);
    const out: Array<{ table: string; count: number; hash: string }> = [];
    for (const [i, { name, withoutRowid }] of tables.entries()) {
      let sum = 0n;
      const count = await db.each(
        `SELECT ${withoutRowid ? '' : '_rowid_ AS "trove:rowid", '}* FROM ${ident(name)}`,
        (row) => {
          const digest = createHash('sha256')
            .update(JSON.stringify(Object.values(row)))
            .digest();
          sum = (sum + digest.readBigUInt64BE(0)) % MOD;
        },
      );
      out.push({ table: name, count, hash: sum.toString(16).padStart(16, '0') });
      progress?.(i + 1, tables.length);
    }
    return finish('sqlite', out);
  } finally {
    await db.run('COMMIT');
  }
}

/** The base tables of the connection's current schema on PostgreSQL. */
export async function postgresTables(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
  );
  return rows.map((row) => row.name);
}

/**
 * The digest of a PostgreSQL database, on `client` as it is (run it inside the transaction whose
 * snapshot matters: the one pg_dump shares). Each row is hashed as its text form in the server.
 */
export async function postgresDigest(
  client: Client,
  progress?: (done: number, total: number) => void,
): Promise<StoreDigest> {
  const tables = await postgresTables(client);
  const out: Array<{ table: string; count: number; hash: string }> = [];
  for (const [i, name] of tables.entries()) {
    const { rows } = await client.query<{ n: string; s: string }>(
      `SELECT COUNT(*)::text AS n, COALESCE(SUM(('x' || substr(md5(t::text), 1, 16))::bit(64)::bigint::numeric), 0)::text AS s FROM ${ident(name)} t`,
    );
    const sum = ((BigInt(rows[0].s) % MOD) + MOD) % MOD;
    out.push({ table: name, count: Number(rows[0].n), hash: sum.toString(16).padStart(16, '0') });
    progress?.(i + 1, tables.length);
  }
  return finish('postgres', out);
}

/** The tables whose count or hash differ between two digests (missing ones included), for the report. */
export function digestDifferences(
  expected: Pick<StoreDigest, 'counts' | 'hashes'>,
  actual: Pick<StoreDigest, 'counts' | 'hashes'>,
): string[] {
  const tables = [...new Set([...Object.keys(expected.counts), ...Object.keys(actual.counts)])].sort();
  const out: string[] = [];
  for (const table of tables) {
    if (!(table in actual.counts)) out.push(`${table}: missing (expected ${expected.counts[table]} rows)`);
    else if (!(table in expected.counts)) out.push(`${table}: not in the manifest (${actual.counts[table]} rows)`);
    else if (expected.counts[table] !== actual.counts[table])
      out.push(`${table}: ${actual.counts[table]} rows, expected ${expected.counts[table]}`);
    else if (expected.hashes[table] !== actual.hashes[table])
      out.push(`${table}: ${actual.counts[table]} rows as expected, but their content differs`);
  }
  return out;
}
