import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** The PostgreSQL server used when TEST_DATABASE_URL is set (`npm run test:pg`). */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

/** A new PostgreSQL database beside TEST_DATABASE_URL's (named `<prefix>_<pid>_<random>`), dropped by `drop`. */
export async function freshPostgresDatabase(
  prefix = 'trove_test',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new URL(testDatabaseUrl!);
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Where a test's store lives: its own temporary directory, and its own PostgreSQL database when TEST_DATABASE_URL is set. */
export interface ThrowawayStore {
  /** TROVE_DATA_DIR and DATABASE_URL ('' on SQLite). */
  env: { TROVE_DATA_DIR: string; DATABASE_URL: string };
  /** Drops the database and removes the directory. */
  remove(): Promise<void>;
}

/** A fresh store for one test file: a temporary SQLite directory, or a new PostgreSQL database when TEST_DATABASE_URL is set. */
export async function throwawayStore(prefix = 'trove-test-'): Promise<ThrowawayStore> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const pg = testDatabaseUrl ? await freshPostgresDatabase() : null;
  return {
    env: { TROVE_DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '' },
    remove: async () => {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
