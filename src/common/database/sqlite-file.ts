import type { Database as Sqlite3Database } from 'sqlite3';
import { sqliteDriver } from './sqlite-driver';

/**
 * A connection of its own to a SQLite file (the CLI's commands, the team control store), through node-sqlite3's public API (the
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
      options.writable || options.create
        ? sqliteDriver.OPEN_READWRITE | (options.create ? sqliteDriver.OPEN_CREATE : 0)
        : sqliteDriver.OPEN_READONLY;
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
    return new Promise((resolve, reject) =>
      this.db.all(sql, params, (error: Error | null, rows: unknown[]) =>
        error ? reject(error) : resolve(rows as T[]),
      ),
    );
  }

  async get<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) =>
      this.db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())),
    );
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
    return new Promise((resolve, reject) =>
      this.db.close((error: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

/** Runs `work` with a connection to `path`, closed afterwards. */
export async function withSqlite<T>(
  path: string,
  options: { writable?: boolean; create?: boolean },
  work: (db: SqliteFile) => Promise<T>,
): Promise<T> {
  const db = await SqliteFile.open(path, options);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
