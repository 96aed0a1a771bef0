import { EventBus, IEvent } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database.service';
import { Commits } from './commits';
import { Outbox, OutboxEntry, StreamTopicName } from './outbox';

/** One record a unit of work changed. */
export interface RecordChange {
  id: string;
  /** The record was deleted (the streams say so). */
  deleted?: boolean;
}

/** What a unit of work's body gets: the transaction, and where to say which records it changed. */
export interface ChangeSet<C extends RecordChange> {
  readonly em: EntityManager;
  /** Records a change; its consequences run when the body returns (a record changed twice counts once, the last change kept). */
  changed(change: C): void;
}

/**
 * Runs a change to records of one kind with its consequences, the same way for every use case
 * (commands, the language refinement, the connector, the qgpt stream, MCP): the body runs in one
 * transaction; then, in that transaction, the kind's own consequences (`inTransaction`: search
 * indexing for assets) and the outbox entries of the changed records; after the commit, the
 * wake-up of the streams (Commits) and the kind's domain events (`afterCommit`). A use case says
 * what changes; it never repeats the consequences. Nothing outside the database happens before
 * the commit: on SQLite a body may run twice (see Database.transaction).
 */
export abstract class UnitOfWork<C extends RecordChange> {
  protected abstract readonly topic: StreamTopicName;

  constructor(
    protected readonly db: Database,
    private readonly outbox: Outbox,
    private readonly commits: Commits,
    protected readonly events: EventBus,
  ) {}

  /** Whether a change deleted its record (the streams say so). */
  protected isDeletion(change: C): boolean {
    return change.deleted === true;
  }

  /** What the streams announce of the changes: each changed record (a kind may add records of another it touched). */
  protected outboxEntries(changes: C[]): OutboxEntry[] {
    return changes.map((c) => ({ topic: this.topic, id: c.id, deleted: this.isDeletion(c) }));
  }

  /** The kind's consequences inside the transaction, before the outbox entries (none by default). */
  protected async inTransaction(_em: EntityManager, _changes: C[]): Promise<void> {}

  /** The kind's domain events for the committed changes. */
  protected abstract eventsOf(changes: C[]): IEvent[];

  /**
   * Runs `body` as one unit of work and answers what it returns. `independent`: see
   * Database.transaction (the body writes only rows of its own, or shared rows that cannot conflict).
   */
  async run<T>(body: (changes: ChangeSet<C>) => Promise<T>, options: { independent?: boolean } = {}): Promise<T> {
    let changes = new Map<string, C>();
    const result = await this.db.transaction(async (em) => {
      changes = new Map(); // a body that runs again starts afresh
      const value = await body({ em, changed: (change) => void changes.set(change.id, change) });
      if (changes.size) {
        const all = [...changes.values()];
        // Independent of each other: on SQLite their statements queue together; on PostgreSQL
        // they run in order, the outbox last (its lock serialises the end of transactions).
        await this.db.together(
          () => this.inTransaction(em, all),
          () => this.outbox.appendMany(em, this.outboxEntries(all)),
        );
      }
      return value;
    }, options);
    if (changes.size) {
      this.commits.committed();
      for (const event of this.eventsOf([...changes.values()])) this.events.publish(event);
    }
    return result;
  }
}
