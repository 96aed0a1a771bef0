import { existsSync } from 'node:fs';
import { AppConfig, ConfigError, loadConfig } from '../common/config/app-config';
import { SqliteFile } from '../common/database/sqlite-file';
import { CliError, EXIT } from './exit-codes';

export { SqliteFile, withSqlite } from '../common/database/sqlite-file';

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
  if (!existsSync(config.sqlitePath))
    throw new CliError(`no Trove store at ${config.sqlitePath} (set --data-dir or TROVE_DATA_DIR)`);
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
