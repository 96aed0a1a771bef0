import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Semaphore } from 'async-mutex';
import { DataSource, EntityManager } from 'typeorm';
import { SQLITE_PRAGMAS } from './database.options';

/** Weight of a writer on the SQLite semaphore: larger than any number of concurrent readers. */
const WRITER = 1_000_000;

/**
 * The only way handlers touch the database.
 *
 * PostgreSQL: a pooled connection per transaction, as usual.
 * SQLite: TypeORM shares ONE query runner for the whole process, so two overlapping
 * `dataSource.transaction()` calls would silently nest as savepoints and a concurrent
 * read would see uncommitted rows. A weighted semaphore makes readers share and
 * writers exclusive, so every transaction is atomic and isolated.
 */
@Injectable()
export class Database implements OnModuleInit {
  private readonly lock: Semaphore | null;

  constructor(@InjectDataSource() readonly dataSource: DataSource) {
    this.lock = dataSource.options.type === 'sqlite' ? new Semaphore(WRITER) : null;
  }

  get dialect(): 'sqlite' | 'postgres' {
    return this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  async onModuleInit(): Promise<void> {
    if (this.dialect === 'sqlite') for (const pragma of SQLITE_PRAGMAS) await this.dataSource.query(pragma);
  }

  /** Runs `work` in one transaction; everything it writes commits together or not at all. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const run = () => this.dataSource.transaction((em) => work(em));
    return this.lock ? this.lock.runExclusive(run, WRITER) : run();
  }

  /** Runs read-only `work`; on SQLite it never observes a transaction in progress. */
  read<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    const run = () => work(this.dataSource.manager);
    return this.lock ? this.lock.runExclusive(run, 1) : run();
  }
}
