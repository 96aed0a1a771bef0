import { existsSync } from 'node:fs';
import type { Database as Sqlite3Database } from 'sqlite3';
import { AppConfig, ConfigError, loadConfig } from '../common/config/app-config';
import { sqliteDriver } from '../common/database/sqlite-driver';
import { CliError, EXIT } from './exit-codes';

/** The store options every store command takes; they override the environment as `npm start` reads it. */
export interface StoreOptions {
  dataDir?: string;
  databaseUrl?: string;
}

/**
 * The configuration the server would run with (the same loadConfig over the same environment),
 * with the command's `--data-dir` / `--database-url` in place of TROVE_DATA_DIR / DATABASE_URL.
 */
export function storeConfig(options: StoreOptions, extra: Record<string, string> = {}): AppConfig {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  if (options.dataDir !== undefined) env.TROVE_DATA_DIR = options.dataDir;
  if (options.databaseUrl !== undefined) env.DATABASE_URL = options.databaseUrl;
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, EXIT.config);
    throw error;
  }
}

/** What the command says the store is: the SQLite file or the PostgreSQL database (without password). */
export function describeStore(config: AppConfig): string {
  if (config.dialect === 'sqlite') return config.sqlitePath;
  const url = new URL(config.databaseUrl!);
  if (url.password) url.password = '***';
  return `PostgreSQL ${url.toString()}`;
}

/** A SQLite store must exist before a command other than `serve` and `restore` touches it. */
export function requireSqliteStore(config: AppConfig): void {
  if (!existsSync(config.sqlitePath)) throw new CliError(`no Trove store at ${config.sqlitePath} (set --data-dir or TROVE_DATA_DIR)`);
}

/**
 * A connection of the command's own to a SQLite file, through node-sqlite3's public API (the
 * driver Trove opens its stores with, sqlite-driver.ts). Read-only unless asked: a running
 * server's writer is never waited for (WAL), and nothing is changed by mistake.
 */
export class SqliteFile {
  private constructor(
    private readonly db: Sqlite3Database,
    readonly path: string,
  ) {}

  static open(path: string, options: { writable?: boolean; create?: boolean } = {}): Promise<SqliteFile> {
    const mode =
      options.writable || options.create ? sqliteDriver.OPEN_READWRITE | (options.create ? sqliteDriver.OPEN_CREATE : 0) : sqliteDriver.OPEN_READONLY;
    return new Promise((resolve, reject) => {
      const db: Sqlite3Database = new sqliteDriver.Database(path, mode, (error: Error | null) => {
        if (error) return reject(error);
        // A checkpoint or a recovery by another connection holds some locks for a moment.
        db.configure('busyTimeout', 5000);
        resolve(new SqliteFile(db, path));
      });
    });
  }

  all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (error: Error | null, rows: unknown[]) => (error ? reject(error) : resolve(rows as T[]))));
  }

  async get<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())));
  }

  /** Streams the rows of `sql` to `row` one at a time (no result set in memory); resolves with the row count. */
  each(sql: string, row: (row: Record<string, unknown>) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      let failure: unknown = null;
      this.db.each(
        sql,
        (error: Error | null, value: Record<string, unknown>) => {
          if (error) failure ??= error;
          else if (!failure) {
            try {
              row(value);
            } catch (thrown) {
              failure = thrown;
            }
          }
        },
        (error: Error | null, count: number) => (error || failure ? reject(error ?? failure) : resolve(count)),
      );
    });
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => this.db.close((error: Error | null) => (error ? reject(error) : resolve())));
  }
}

/** Runs `work` with a connection to `path`, closed afterwards. */
export async function withSqlite<T>(path: string, options: { writable?: boolean; create?: boolean }, work: (db: SqliteFile) => Promise<T>): Promise<T> {
  const db = await SqliteFile.open(path, options);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/**
 * Whether another process (a Trove server, another command) has the SQLite store open. In WAL
 * mode every open connection holds a shared lock on the database file; a connection in EXCLUSIVE
 * locking mode needs an exclusive one for its first read, so it gets SQLITE_BUSY at once (busy
 * timeout 0) while anyone else has the file open, and succeeds (then closes) otherwise.
 */
export async function sqliteInUse(path: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const probe = await SqliteFile.open(path, { writable: true });
  try {
    await probe.run('PRAGMA busy_timeout = 0');
    await probe.run('PRAGMA locking_mode = EXCLUSIVE');
    await probe.all('SELECT COUNT(*) FROM sqlite_master');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    await probe.close();
  }
}

/**
 * Refuses (exit 1) when a server or another command has the SQLite store open: SQLite lets one
 * process write at a time, and a long write from here (an import) would hold the write lock
 * against the server's own writes. `hint` says what else the operator can do.
 */
export async function requireSqliteIdle(config: AppConfig, what: string, hint = ''): Promise<void> {
  if (await sqliteInUse(config.sqlitePath)) {
    throw new CliError(
      `${config.sqlitePath} is open in another process (a running Trove server?): stop it before ${what}; ` +
        `SQLite lets one process write at a time and the server's writes would wait on this one${hint ? `. ${hint}` : ''}`,
    );
  }
}
