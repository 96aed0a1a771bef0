import { Mutex } from 'async-mutex';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool, type PoolClient } from 'pg';
import { AppConfig } from '../common/config/app-config';
import { SqliteFile } from '../common/database/sqlite-file';

/** The same tables on SQLite and PostgreSQL: text ids and times (ISO 8601), integer flags. */
function schema(dialect: 'sqlite' | 'postgres', p: string): string[] {
  const serial = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY';
  return [
    `CREATE TABLE IF NOT EXISTS ${p}meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${p}users (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, admin INTEGER NOT NULL,
       store TEXT NOT NULL, token_hash TEXT UNIQUE, token_created TEXT, created TEXT NOT NULL,
       oidc_issuer TEXT, oidc_subject TEXT, UNIQUE (oidc_issuer, oidc_subject))`,
    `CREATE TABLE IF NOT EXISTS ${p}spaces (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, store TEXT NOT NULL, created TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${p}members (space_id TEXT NOT NULL REFERENCES ${p}spaces(id) ON DELETE CASCADE,
       user_id TEXT NOT NULL REFERENCES ${p}users(id) ON DELETE CASCADE, role TEXT NOT NULL, PRIMARY KEY (space_id, user_id))`,
    `CREATE TABLE IF NOT EXISTS ${p}sessions (id_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES ${p}users(id) ON DELETE CASCADE,
       csrf TEXT NOT NULL, created TEXT NOT NULL, expires TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${p}audit (seq ${serial}, at TEXT NOT NULL, user_id TEXT, user_name TEXT, action TEXT NOT NULL,
       method TEXT, route TEXT, record TEXT, status INTEGER, client TEXT, store TEXT)`,
    `CREATE INDEX IF NOT EXISTS audit_at ON ${p}audit (at)`,
    `INSERT INTO ${p}meta (key, value) VALUES ('version', '0') ON CONFLICT (key) DO NOTHING`,
  ];
}

export interface Session {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
}

export interface Driver extends Session {
  readonly dialect: 'sqlite' | 'postgres';
  /** Table name prefix: the control schema on PostgreSQL. */
  readonly p: string;
  transaction<T>(work: (session: Session) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL's `$n`. */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

class SqliteDriver implements Driver {
  readonly dialect = 'sqlite' as const;
  readonly p = '';
  /** One connection: statements of a transaction must not interleave with another caller's. */
  private readonly mutex = new Mutex();

  constructor(private readonly file: SqliteFile) {}

  all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.mutex.runExclusive(() => this.file.all<T>(sql, params));
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return this.mutex.runExclusive(() => this.file.run(sql, params));
  }

  transaction<T>(work: (session: Session) => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(async () => {
      await this.file.run('BEGIN IMMEDIATE');
      try {
        const result = await work({
          all: (sql, params = []) => this.file.all(sql, params),
          run: (sql, params = []) => this.file.run(sql, params),
        });
        await this.file.run('COMMIT');
        return result;
      } catch (error) {
        await this.file.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

class PostgresDriver implements Driver {
  readonly dialect = 'postgres' as const;
  readonly p = 'trove_control.';

  constructor(private readonly pool: Pool) {}

  async all<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(numbered(sql), params)).rows as T[];
  }

  async run(sql: string, params: unknown[] = []): Promise<void> {
    await this.pool.query(numbered(sql), params);
  }

  async transaction<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        all: async (sql, params = []) => (await client.query(numbered(sql), params)).rows,
        run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * The team directory's database, made and brought up to date: `control.db` beside the stores
 * (SQLite), or the schema `trove_control` (PostgreSQL).
 */
export async function openControlDatabase(config: AppConfig): Promise<Driver> {
  let driver: Driver;
  if (config.dialect === 'sqlite') {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    const file = await SqliteFile.open(join(config.dataDir, 'control.db'), { writable: true, create: true });
    await file.run('PRAGMA journal_mode = WAL');
    await file.run('PRAGMA synchronous = FULL');
    await file.run('PRAGMA foreign_keys = ON');
    driver = new SqliteDriver(file);
  } else {
    const pool = new Pool({ connectionString: config.databaseUrl!, max: 2, idleTimeoutMillis: 10_000 });
    pool.on('error', () => undefined); // an idle client lost: the next query connects again
    await pool.query('CREATE SCHEMA IF NOT EXISTS trove_control');
    driver = new PostgresDriver(pool);
  }
  try {
    // Two processes may create the tables at once (IF NOT EXISTS races on PostgreSQL): one at a time.
    await driver.transaction(async (session) => {
      if (driver.dialect === 'postgres') await session.run(`SELECT pg_advisory_xact_lock(${0x74726f7643})`);
      for (const statement of schema(driver.dialect, driver.p)) await session.run(statement);
    });
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
  return driver;
}
