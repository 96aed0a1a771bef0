import { BeforeApplicationShutdown, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Semaphore } from 'async-mutex';
import { createHash } from 'node:crypto';
import { DataSource, DataSourceOptions, EntityManager } from 'typeorm';
import { SQLITE_PRAGMAS, SQLITE_READER_PRAGMAS } from './database.options';
import { POSTGRES, SQLITE, SqlDialect } from './sql-dialect';
import { GroupCommit } from './group-commit';
import { StatementCache } from './statement-cache';
import { checkSqliteInternals } from './sqlite-driver';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * Weight of a writer on the SQLite semaphore = how many readers may run at once. Small on
 * purpose: there is one SQLite connection anyway, and async-mutex's release walks every unit.
 */
const WRITER = 32;
/** Key of the PostgreSQL advisory lock held while migrating ("trove" in ASCII). */
const MIGRATION_LOCK = 0x74726f7665;

type Work<T> = (em: EntityManager) => Promise<T>;
type Step = () => Promise<unknown>;

/**
 * The only way handlers touch the database.
 *
 * PostgreSQL: a pooled connection per transaction, as usual.
 *
 * SQLite: TypeORM shares ONE query runner for the whole process, so two overlapping
 * `dataSource.transaction()` calls would silently nest as savepoints and a concurrent read
 * would see uncommitted rows. So `read` runs on a second, query-only connection to the same
 * file: in WAL mode it sees only committed transactions and never waits for a writer (nor a
 * writer for it). `readConsistent`, whose statements must all see one state, shares a
 * semaphore on the writing connection with the writers, which take it whole. Writers are
 * group-committed (GroupCommit); statements are prepared once (StatementCache).
 */
@Injectable()
export class Database implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly lock: Semaphore | null;
  /** SQLite only: the writers' queue. */
  private readonly writes: GroupCommit | null;
  private readonly statements = new StatementCache();
  /** SQLite only: the query-only connection `read` uses. */
  private reader: DataSource | null = null;
  /** SQLite only: checkpoints the WAL from a third connection, off the writer's COMMITs. */
  private checkpointer: WalCheckpointer | null = null;
  private closing = false;

  /** PostgreSQL: the team store's schema (database.options.ts), null for the process's own store. */
  private readonly schema: string | null;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.lock = dataSource.options.type === 'sqlite' ? new Semaphore(WRITER) : null;
    this.writes = this.lock
      ? new GroupCommit(
          dataSource,
          this.lock,
          WRITER,
          (em, sql) => this.query(em, sql),
          () => this.checkpointer?.noteCommit(),
        )
      : null;
    this.schema = dataSource.options.type === 'postgres' ? (dataSource.options.schema ?? null) : null;
  }

  /**
   * A LISTEN/NOTIFY channel of this store: the stores of a team deployment share one PostgreSQL
   * database, and one user's commits must not wake another's readers (docs/TEAMS.md).
   */
  channel(base: string): string {
    return this.schema ? `${base}_${createHash('sha256').update(this.schema).digest('hex').slice(0, 12)}` : base;
  }

  /** An advisory-lock key of this store (see `channel`): stores never wait for each other's locks. */
  storeLock(base: number): number {
    if (!this.schema) return base;
    return base + 1 + parseInt(createHash('sha256').update(this.schema).digest('hex').slice(0, 8), 16) * 2 ** 12;
  }

  get dialect(): 'sqlite' | 'postgres' {
    return this.sql.name;
  }

  /** The SQL text differences of this database (placeholders, JSON elements, joins). */
  get sql(): SqlDialect {
    return this.lock ? SQLITE : POSTGRES;
  }

  /** The placeholder of the `n`th bound parameter (see SqlDialect). */
  param(n: number): string {
    return this.sql.param(n);
  }

  /** Placeholders of `count` parameters from the `from`th on (see SqlDialect). */
  params(count: number, from = 1): string {
    return this.sql.params(count, from);
  }

  /** SQLite: units of work waiting for the next write batch (the metrics' queue depth); PostgreSQL has no such queue. */
  get queuedWrites(): number {
    return this.writes?.queued ?? 0;
  }

  /** The database is open (its connection, or PostgreSQL's pool, is initialised). */
  get open(): boolean {
    return this.dataSource.isInitialized;
  }

  async onModuleInit(): Promise<void> {
    if (this.dialect === 'sqlite') {
      checkSqliteInternals(this.dataSource);
      for (const pragma of SQLITE_PRAGMAS) await this.dataSource.query(pragma);
      // Opened after the writer ran the migrations, so the reader sees the final schema.
      const reader = new DataSource({ ...this.dataSource.options, migrationsRun: false } as DataSourceOptions);
      await reader.initialize();
      for (const pragma of SQLITE_READER_PRAGMAS) await reader.query(pragma);
      this.reader = reader;
      this.checkpointer = await WalCheckpointer.open((this.dataSource.options as { database: string }).database);
    } else {
      await this.migratePostgres();
    }
  }

  /** SQLite refuses to close with prepared statements open: finalize them first. */
  beforeApplicationShutdown(): void {
    this.closing = true;
    this.statements.clear();
  }

  /** Closes the reader and the checkpointer once every module's shutdown work (which may still read) is done. */
  async onApplicationShutdown(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    if (reader?.isInitialized) await reader.destroy();
    await this.checkpointer?.close();
    this.checkpointer = null;
  }

  /** Applies pending migrations; instances booting together take turns on an advisory lock. */
  private async migratePostgres(): Promise<void> {
    // A team store's schema is made on its first opening (search_path names it from the start).
    if (this.schema) await this.dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
    await this.exclusive(MIGRATION_LOCK, () => this.dataSource.runMigrations({ transaction: 'each' }));
  }

  /**
   * Runs `work` while no other instance runs work under the same `key` (PostgreSQL: a session
   * advisory lock on a connection of its own, waited for; SQLite: one process owns the store, so
   * `work` just runs). For work done once per store at boot, such as migrating.
   */
  async exclusive<T>(key: number, work: () => Promise<T>): Promise<T> {
    return (await this.locked(key, work, true)) as T;
  }

  /** As `exclusive`, but when another instance holds the lock, skips `work` (undefined) instead of waiting. */
  unlessBusy<T>(key: number, work: () => Promise<T>): Promise<T | undefined> {
    return this.locked(key, work, false);
  }

  private async locked<T>(key: number, work: () => Promise<T>, wait: boolean): Promise<T | undefined> {
    if (this.dialect === 'sqlite') return work();
    key = this.storeLock(key);
    const session = this.dataSource.createQueryRunner();
    await session.connect();
    try {
      if (wait) await session.query('SELECT pg_advisory_lock($1)', [key]);
      else {
        const [{ locked }] = await session.query('SELECT pg_try_advisory_lock($1) AS locked', [key]);
        if (!locked) return undefined;
      }
      try {
        return await work();
      } finally {
        await session.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
      }
    } finally {
      await session.release();
    }
  }

  /**
   * Runs `work` in one transaction; everything it writes commits together or not at all, and
   * the promise settles only once the commit is durable. Never call it from inside `work`.
   * On SQLite `work` may run twice (after a rollback caused by another unit of its batch):
   * it must not change state outside the database before it returns.
   *
   * `independent`: the work writes only rows of its own (fresh ids) or shared rows through
   * statements that cannot conflict (INSERT ... ON CONFLICT DO NOTHING), and reads back only
   * what it wrote. On SQLite such units of one batch then run interleaved: their statements
   * queue on the connection together, so one unit's statement runs while another's result waits
   * for the event loop, instead of the connection idling on every round trip.
   */
  transaction<T>(work: Work<T>, options: { independent?: boolean } = {}): Promise<T> {
    if (!this.writes) return this.dataSource.transaction((em) => work(em));
    return this.writes.run(work, options.independent === true);
  }

  /**
   * SQLite: has the write batch in progress run `sql` once, just before it commits (after every
   * unit of work, whichever registered it; registering it again is a no-op). For work that is
   * cheaper done once per transaction than once per unit, e.g. moving staged rows into a
   * full-text index. A failing step fails the batch.
   */
  beforeCommit(sql: string): void {
    if (!this.writes) throw new Error('beforeCommit: PostgreSQL transactions are not write batches');
    this.writes.beforeCommit(sql);
  }

  /**
   * Runs one SQL statement through `em` (inside `read` or `transaction`). On SQLite the
   * statement is prepared once and reused: node-sqlite3 prepares every statement again
   * otherwise, which costs more than running a complex read. Placeholders are numbered:
   * `?1` on SQLite, `$1` on PostgreSQL.
   */
  query<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
    if (!this.lock || this.closing) return em.query(sql, params);
    return this.statements.all<T>(em, sql, params);
  }

  /**
   * Runs steps of one unit of work that do not depend on each other (falsy entries are skipped).
   * On SQLite they start at once, so their statements queue on the connection together instead
   * of each waiting for the round trip of the one before it through a busy event loop; they
   * may then run in any order. On PostgreSQL, whose connection takes one query at a time, they
   * run one after another. Rejects with the first failure, but only once none is still running.
   */
  async together(...steps: (Step | false | null | undefined | 0)[]): Promise<void> {
    const work = steps.filter((step): step is Step => typeof step === 'function');
    if (!this.lock) {
      for (const step of work) await step();
      return;
    }
    const settled = await Promise.allSettled(work.map((step) => step()));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Inserts one row given as entity properties (mapped to columns by TypeORM's metadata) with
   * a plain prepared INSERT: unlike `em.insert`, it does not read columns with defaults back.
   */
  async insert<T extends object>(em: EntityManager, entity: new () => T, values: Partial<T>): Promise<void> {
    const metadata = em.connection.getMetadata(entity);
    const columns = metadata.columns.filter((c) => (values as Record<string, unknown>)[c.propertyName] !== undefined);
    const sql = `INSERT INTO "${metadata.tableName}" (${columns.map((c) => `"${c.databaseName}"`).join(', ')}) VALUES (${this.params(columns.length)})`;
    await this.query(
      em,
      sql,
      columns.map((c) => (values as Record<string, unknown>)[c.propertyName]),
    );
  }

  /**
   * Runs read-only `work`. Each statement sees only committed transactions; two statements may
   * see different ones (use `readConsistent` when they must agree). On SQLite it never waits
   * for a writer.
   */
  read<T>(work: Work<T>): Promise<T> {
    if (this.reader && !this.closing) return work(this.reader.manager);
    return this.readConsistent(work);
  }

  /**
   * Runs read-only `work` on one consistent snapshot: on PostgreSQL one REPEATABLE READ
   * transaction (every statement sees the same commits); on SQLite the writing connection
   * between two write batches.
   */
  readConsistent<T>(work: Work<T>): Promise<T> {
    if (this.lock) return this.lock.runExclusive(() => work(this.dataSource.manager), 1);
    return this.dataSource.transaction('REPEATABLE READ', (em) => work(em));
  }
}
