import { BeforeApplicationShutdown, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Semaphore } from 'async-mutex';
import { createHash } from 'node:crypto';
import { DataSource, DataSourceOptions, EntityManager, QueryRunner } from 'typeorm';
import { isStorageUnavailable } from '../errors/error-body';
import { SQLITE_PRAGMAS, SQLITE_READER_PRAGMAS } from './database.options';
import { POSTGRES, SQLITE, SqlDialect } from './sql-dialect';
import { SqliteStatement, checkSqliteInternals, markRunnerTransaction, rawConnection } from './sqlite-driver';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * Weight of a writer on the SQLite semaphore = how many readers may run at once. Small on
 * purpose: there is one SQLite connection anyway, and async-mutex's release walks every unit.
 */
const WRITER = 32;
/** Key of the PostgreSQL advisory lock held while migrating ("trove" in ASCII). */
const MIGRATION_LOCK = 0x74726f7665;
/** Most units of work committed together by one SQLite COMMIT. */
const MAX_BATCH = 64;

/** Prepared SQLite statements kept for reuse (the SQL texts are a fixed set in the code). */
const MAX_STATEMENTS = 200;
/** Prepared copies of each statement, used in turn. */
const STATEMENT_COPIES = 4;

type Work<T> = (em: EntityManager) => Promise<T>;
type Step = () => Promise<unknown>;

interface Unit {
  work: Work<unknown>;
  /** May run interleaved with the other independent units of its batch (see `transaction`). */
  independent: boolean;
  /** Runs again after its batch was rolled back for another unit's failure. */
  again?: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The batch cut into runs of units that run together: consecutive independent units, any other alone. */
function independentRuns(batch: Unit[]): Unit[][] {
  const runs: Unit[][] = [];
  for (const unit of batch) {
    const last = runs[runs.length - 1];
    if (unit.independent && last?.[0].independent) last.push(unit);
    else runs.push([unit]);
  }
  return runs;
}

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
 * semaphore on the writing connection with the writers, which take it whole.
 * Writers are also group-committed: units of work that queue up while a COMMIT is in
 * flight run together in the next transaction, independent ones interleaved (a unit that
 * fails is rejected alone, the others run again; see commitBatch), and all are acknowledged
 * only after their common COMMIT (one fsync with synchronous=FULL) succeeds. Nothing is
 * acknowledged before it is durable.
 */
@Injectable()
export class Database implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly lock: Semaphore | null;
  private readonly pending: Unit[] = [];
  /** SQLite: statements the write batch in progress runs once, just before its COMMIT (see beforeCommit). */
  private readonly commitSteps = new Set<string>();
  /** Prepared statements per SQLite connection (the writer's and the reader's). */
  private readonly statements = new Map<DataSource, Map<string, SqliteStatement[]>>();
  /** SQLite only: the query-only connection `read` uses. */
  private reader: DataSource | null = null;
  /** SQLite only: checkpoints the WAL from a third connection, off the writer's COMMITs. */
  private checkpointer: WalCheckpointer | null = null;
  private nextCopy = 0;
  private closing = false;
  private draining = false;

  /** PostgreSQL: the team store's schema (database.options.ts), null for the process's own store. */
  private readonly schema: string | null;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.lock = dataSource.options.type === 'sqlite' ? new Semaphore(WRITER) : null;
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
    return this.pending.length;
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
    for (const cache of this.statements.values()) for (const pool of cache.values()) pool.forEach((statement) => statement.finalize());
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
    if (!this.lock) return this.dataSource.transaction((em) => work(em));
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, independent: options.independent === true, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /**
   * SQLite: has the write batch in progress run `sql` once, just before it commits (after every
   * unit of work, whichever registered it; registering it again is a no-op). For work that is
   * cheaper done once per transaction than once per unit, e.g. moving staged rows into a
   * full-text index. A failing step fails the batch.
   */
  beforeCommit(sql: string): void {
    if (!this.lock) throw new Error('beforeCommit: PostgreSQL transactions are not write batches');
    this.commitSteps.add(sql);
  }

  /**
   * Runs one SQL statement through `em` (inside `read` or `transaction`). On SQLite the
   * statement is prepared once and reused: node-sqlite3 prepares every statement again
   * otherwise, which costs more than running a complex read. Placeholders are numbered:
   * `?1` on SQLite, `$1` on PostgreSQL.
   */
  query<T = Record<string, unknown>>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
    if (!this.lock || this.closing) return em.query(sql, params);
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
    return new Promise<T[]>((resolve, reject) => statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
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

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, MAX_BATCH);
        await this.lock!.runExclusive(() => this.commitBatch(batch), WRITER);
      }
    } finally {
      this.draining = false;
    }
  }

  private async commitBatch(batch: Unit[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    const outcomes: { unit: Unit; ok: boolean; value?: unknown; error?: unknown }[] = [];
    // Savepoints cost two statements per unit, so a batch first runs without them. When one of
    // its units then fails, the batch is rolled back, that unit alone is rejected and the others
    // run again in a later batch, each in its own SAVEPOINT (a unit that fails there rolls back
    // alone). Every unit's work must therefore be safe to run again after a rollback.
    const savepoints = batch.length > 1 && batch.some((unit) => unit.again);
    try {
      const em = runner.manager;
      await this.begin(runner, em);
      for (const run of savepoints ? batch.map((unit) => [unit]) : independentRuns(batch)) {
        if (savepoints) await this.query(em, 'SAVEPOINT unit');
        const settled = await Promise.allSettled(run.map((unit) => unit.work(em)));
        // A broken storage poisons the whole transaction: fail the batch, acknowledge nothing.
        const broken = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && isStorageUnavailable(s.reason));
        if (broken) throw broken.reason;
        const failed = settled.findIndex((s) => s.status === 'rejected');
        if (failed < 0) {
          if (savepoints) await this.query(em, 'RELEASE unit');
          settled.forEach((s, j) => outcomes.push({ unit: run[j], ok: true, value: (s as PromiseFulfilledResult<unknown>).value }));
          continue;
        }
        const unit = run[failed];
        const error = (settled[failed] as PromiseRejectedResult).reason;
        if (!savepoints) {
          await this.abort(runner);
          unit.reject(error);
          const others = batch.filter((other) => other !== unit);
          for (const other of others) other.again = true;
          this.pending.unshift(...others);
          return;
        }
        await this.query(em, 'ROLLBACK TO unit'); // this unit only
        await this.query(em, 'RELEASE unit');
        outcomes.push({ unit, ok: false, error });
      }
      for (const step of this.commitSteps) await this.query(em, step);
      await this.query(em, 'COMMIT');
      this.checkpointer?.noteCommit();
      markRunnerTransaction(runner, false);
    } catch (error) {
      await this.abort(runner);
      for (const unit of batch) unit.reject(error);
      return;
    }
    for (const outcome of outcomes) {
      if (outcome.ok) outcome.unit.resolve(outcome.value);
      else outcome.unit.reject(outcome.error);
    }
  }

  /**
   * BEGIN (and COMMIT) as prepared statements: TypeORM's `startTransaction` prepares each anew,
   * one more round trip through the event loop per batch, where it waits behind the requests
   * being parsed. TypeORM's runner is then told it is in a transaction, so that its own methods
   * (`em.save`) do not try to start one.
   * IMMEDIATE: the write lock is taken at BEGIN, waiting for it (busy_timeout) while another
   * process writes to the same file. A deferred transaction that reads first would instead fail
   * at its first write with SQLITE_BUSY whenever another process committed in between.
   */
  private async begin(runner: QueryRunner, em: EntityManager): Promise<void> {
    this.commitSteps.clear();
    await this.query(em, 'BEGIN IMMEDIATE');
    markRunnerTransaction(runner, true);
  }

  /**
   * Rolls everything back, even when SQLite already did (a failed COMMIT, a full disk). Through
   * `query`, not TypeORM's runner, which would log the expected "no transaction is active".
   */
  private async abort(runner: QueryRunner): Promise<void> {
    await this.query(runner.manager, 'ROLLBACK').catch(() => undefined);
    markRunnerTransaction(runner, false);
  }
}
