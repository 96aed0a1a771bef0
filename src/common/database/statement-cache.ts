import { DataSource, EntityManager } from 'typeorm';
import { SqliteStatement, rawConnection } from './sqlite-driver';

/** Prepared SQLite statements kept for reuse (the SQL texts are a fixed set in the code). */
const MAX_STATEMENTS = 200;
/** Prepared copies of each statement, used in turn. */
const STATEMENT_COPIES = 4;

/**
 * SQLite statements prepared once and reused, per connection (the writer's and the reader's):
 * node-sqlite3 prepares every statement again otherwise, which costs more than running a
 * complex read. At most MAX_STATEMENTS per connection, the oldest finalized first.
 */
export class StatementCache {
  private readonly statements = new Map<DataSource, Map<string, SqliteStatement[]>>();
  private nextCopy = 0;

  /** Runs `sql` with `params` on `em`'s connection through a prepared statement. */
  all<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
    const source = em.connection;
    let cache = this.statements.get(source);
    if (!cache) this.statements.set(source, (cache = new Map()));
    let pool = cache.get(sql);
    if (!pool) {
      if (cache.size >= MAX_STATEMENTS) {
        const [oldest, stale] = cache.entries().next().value!;
        cache.delete(oldest);
        stale.forEach((statement) => statement.finalize());
      }
      pool = [];
      cache.set(sql, pool);
    }
    // node-sqlite3 runs the calls of one statement object strictly one after another, each
    // waiting for a round trip through the event loop: statements used again get a few copies,
    // used in turn (one-off statements, e.g. with an IN list, cost a single prepare).
    if (pool.length < STATEMENT_COPIES) pool.push(rawConnection(source).prepare(sql));
    const statement = pool[(this.nextCopy = (this.nextCopy + 1) % pool.length)];
    return new Promise<T[]>((resolve, reject) =>
      statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
    );
  }

  /** Finalizes every prepared statement (SQLite refuses to close a connection with statements open). */
  clear(): void {
    for (const cache of this.statements.values())
      for (const pool of cache.values()) pool.forEach((statement) => statement.finalize());
    this.statements.clear();
  }
}
