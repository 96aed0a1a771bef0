import type { DataSource, QueryRunner } from 'typeorm';

/**
 * Every place where Trove goes past the public API of TypeORM's SQLite driver or of
 * node-sqlite3 (`sqlite3`), and why. Callers use only these functions and types;
 * `test/contract/sqlite-driver.spec.ts` checks each property relied on here against the
 * installed libraries, so an upgrade that changes one fails there, by name. Fix this file
 * (or drop the shortcut it takes), not its callers.
 *
 * What is relied on:
 * - `rawConnection`: TypeORM's SqliteDriver keeps the node-sqlite3 `Database` it opened in
 *   its `databaseConnection` property, and its (single, shared) query runner runs every
 *   statement on that same connection. `Database` prepares its statements there itself and
 *   reuses them: TypeORM prepares every statement anew, which costs more than running a
 *   complex read (docs/PERFORMANCE.md). BEGIN and COMMIT of a write batch are such prepared
 *   statements too, so they must share TypeORM's session.
 * - `markRunnerTransaction`: TypeORM decides whether `em.save` (and the query builders'
 *   `useTransaction`) start a transaction of their own from the runner's
 *   `isTransactionActive`, and `startTransaction` chooses between BEGIN and a SAVEPOINT from
 *   its `transactionDepth`. A write batch that BEGINs through a prepared statement sets both,
 *   so TypeORM's methods run inside it instead of failing on a nested BEGIN.
 * - `sqliteDriver`: TypeORM calls `verbose()` on the `driver` module it is given and uses what
 *   that returns; node-sqlite3's `verbose()` wraps the Database and Statement methods of the
 *   whole process to capture a stack trace on every call (~0.5 s of CPU per 1,000 creates,
 *   reads 1,428 -> 3,839 req/s). `sqliteDriver` is node-sqlite3 with `verbose()` a no-op;
 *   errors still carry SQLite's message and code.
 * - The node-sqlite3 calls themselves (`prepare`, `Statement#all(params, callback)` with
 *   positional parameters `?1`..., `finalize`, `Database#all/close`, `new Database(path, callback)`)
 *   are its public API. Note: a statement that fails to prepare reports it as an `error` event
 *   on the statement (uncaught unless listened to) and never calls back the `all` queued on
 *   it; only the code's own, known-valid SQL texts are prepared.
 */

/** A prepared node-sqlite3 statement. */
export interface SqliteStatement {
  /** Binds `params` (`?1` is `params[0]`) and calls back with every row as an object keyed by column name. */
  all(params: unknown[], callback: (error: Error | null, rows: unknown[]) => void): void;
  /** Releases the statement; SQLite refuses to close a connection that still has statements. */
  finalize(): void;
}

/** A node-sqlite3 connection (its `Database`), as far as Trove uses it. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  all(sql: string, callback: (error: Error | null, rows: unknown[]) => void): void;
  close(callback: (error: Error | null) => void): void;
}

type Sqlite3 = typeof import('sqlite3');

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sqlite3: Sqlite3 = require('sqlite3');

/**
 * node-sqlite3 with `verbose()` made a no-op (see above): the `driver` of every SQLite
 * DataSource (`dataSourceOptions`) and of WalCheckpointer's connection.
 */
export const sqliteDriver: Sqlite3 = Object.assign(Object.create(sqlite3) as Sqlite3, { verbose: () => sqliteDriver });

/** Opens a connection of its own to the database file at `path` (through `sqliteDriver`). */
export function openSqlite(path: string): Promise<SqliteConnection> {
  return new Promise((resolve, reject) => {
    const db: SqliteConnection = new sqliteDriver.Database(path, (error: Error | null) =>
      error ? reject(error) : resolve(db),
    );
  });
}

/** The node-sqlite3 connection that TypeORM's runner of `source` (a SQLite DataSource) uses. */
export function rawConnection(source: DataSource): SqliteConnection {
  return (source.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
}

interface RunnerTransactionState {
  isTransactionActive: boolean;
  transactionDepth: number;
}

/**
 * Tells TypeORM's `runner` that a transaction begun (or ended) outside it, through a prepared
 * statement of `rawConnection`, is active (or not): while marked, `em.save` on its manager starts
 * no transaction of its own, and `startTransaction` would open a SAVEPOINT rather than BEGIN.
 */
export function markRunnerTransaction(runner: QueryRunner, active: boolean): void {
  const state = runner as unknown as RunnerTransactionState;
  state.isTransactionActive = active;
  state.transactionDepth = active ? 1 : 0;
}

/**
 * Checked once when the database starts, so that a TypeORM upgrade that moved what
 * `rawConnection` and `markRunnerTransaction` use fails at boot with a clear message rather
 * than on the first write. `source` must be initialized.
 */
export function checkSqliteInternals(source: DataSource): void {
  const connection = rawConnection(source) as Partial<SqliteConnection> | undefined;
  if (typeof connection?.prepare !== 'function') {
    throw new Error(
      "TypeORM's SQLite driver no longer exposes its node-sqlite3 connection as `databaseConnection` (src/common/database/sqlite-driver.ts; test/contract/sqlite-driver.spec.ts)",
    );
  }
  const state = source.createQueryRunner() as unknown as Partial<RunnerTransactionState>;
  if (typeof state.isTransactionActive !== 'boolean' || typeof state.transactionDepth !== 'number') {
    throw new Error(
      "TypeORM's query runner no longer keeps `isTransactionActive` and `transactionDepth` (src/common/database/sqlite-driver.ts; test/contract/sqlite-driver.spec.ts)",
    );
  }
}
