import { Semaphore } from 'async-mutex';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isStorageUnavailable } from '../errors/error-body';
import { markRunnerTransaction } from './sqlite-driver';

/** Most units of work committed together by one SQLite COMMIT. */
const MAX_BATCH = 64;

type Work<T> = (em: EntityManager) => Promise<T>;

interface Unit {
  work: Work<unknown>;
  /** May run interleaved with the other independent units of its batch (see Database.transaction). */
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
 * SQLite's writers, group-committed: units of work that queue up while a COMMIT is in flight run
 * together in the next transaction on the one writing connection, independent ones interleaved
 * (a unit that fails is rejected alone, the others run again; see commitBatch), and all are
 * acknowledged only after their common COMMIT (one fsync with synchronous=FULL) succeeds.
 * Nothing is acknowledged before it is durable. A batch holds the whole of `lock` (`weight`),
 * which the consistent reads share.
 */
export class GroupCommit {
  private readonly pending: Unit[] = [];
  /** Statements the write batch in progress runs once, just before its COMMIT (see beforeCommit). */
  private readonly commitSteps = new Set<string>();
  private draining = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly lock: Semaphore,
    private readonly weight: number,
    /** Runs one statement on the writing connection (prepared once: Database.query). */
    private readonly query: (em: EntityManager, sql: string) => Promise<unknown>,
    /** Called after each COMMIT. */
    private readonly committed: () => void,
  ) {}

  /** Units of work waiting for the next write batch (the metrics' queue depth). */
  get queued(): number {
    return this.pending.length;
  }

  /** Runs `work` in the next write batch; settles once that batch's COMMIT is durable (see Database.transaction). */
  run<T>(work: Work<T>, independent: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, independent, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Has the write batch in progress run `sql` once, just before it commits (see Database.beforeCommit). */
  beforeCommit(sql: string): void {
    this.commitSteps.add(sql);
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, MAX_BATCH);
        await this.lock.runExclusive(() => this.commitBatch(batch), this.weight);
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
        const broken = settled.find(
          (s): s is PromiseRejectedResult => s.status === 'rejected' && isStorageUnavailable(s.reason),
        );
        if (broken) throw broken.reason;
        const failed = settled.findIndex((s) => s.status === 'rejected');
        if (failed < 0) {
          if (savepoints) await this.query(em, 'RELEASE unit');
          settled.forEach((s, j) =>
            outcomes.push({ unit: run[j], ok: true, value: (s as PromiseFulfilledResult<unknown>).value }),
          );
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
      this.committed();
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
