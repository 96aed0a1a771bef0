import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database.service';

/** Topics of the change streams: one per kind of record a stream announces (persons and sensitives: none yet, ever empty). */
export type StreamTopicName =
  | 'assets'
  | 'conversations'
  | 'models'
  | 'workstream_summaries'
  | 'applications'
  | 'anchors'
  | 'ranges'
  | 'persons'
  | 'sensitives';

export interface OutboxEntry {
  topic: StreamTopicName;
  /** Id of the record that changed. */
  id: string;
  /** True when the record was deleted. */
  deleted?: boolean;
}

/** One committed outbox row, as the tailers read it. */
export interface StreamEvent {
  id: number;
  topic: StreamTopicName;
  entityId: string;
  deleted: boolean;
}

/** PostgreSQL NOTIFY channel that wakes the tailers of every instance when an append commits. */
export const STREAM_CHANNEL = 'trove_stream';
/**
 * Key of the transaction-level advisory lock that serialises appends on PostgreSQL ("troveS").
 * Held from the append to the end of the transaction, so outbox ids commit in increasing order.
 */
const OUTBOX_LOCK = 0x74726f7653;

/**
 * The change-stream outbox (`stream_events`). Every unit of work (UnitOfWork) appends the
 * records it changed INSIDE its transaction, so the change and its event commit together or not
 * at all.
 *
 * Ordering: on SQLite there is one writer and a batch becomes visible at once. On
 * PostgreSQL a sequence hands out ids in call order but transactions may commit in another
 * order, and a tailer reading `id > last` would then skip a lower id that commits later.
 * `appendMany` therefore first takes a transaction-level advisory lock: every appending
 * transaction holds it from its append until it commits or rolls back, so the next one can
 * only draw a higher id after the previous is visible (locks are released after the commit
 * is visible). It runs last in the transaction: it serialises the end of writes only.
 */
@Injectable()
export class Outbox {
  /**
   * This instance among those sharing the database: the NOTIFY of its appends carries it, so that
   * its own LISTEN leaves them to the local commit signal (Commits) and only other instances wake.
   */
  readonly instance = randomUUID();

  constructor(private readonly db: Database) {}

  /** Appends entries inside the caller's (not yet committed) transaction. Called by UnitOfWork only. */
  async appendMany(em: EntityManager, entries: OutboxEntry[]): Promise<void> {
    if (!entries.length) return;
    const now = new Date().toISOString();
    const params: unknown[] = [];
    const rows = entries.map((entry) => {
      params.push(entry.topic, entry.id, entry.deleted === true, now);
      return `(${this.db.params(4, params.length - 3)})`;
    });
    if (this.db.dialect === 'postgres')
      await this.db.query(em, `SELECT pg_advisory_xact_lock($1), pg_notify($2, $3)`, [
        this.db.storeLock(OUTBOX_LOCK),
        this.db.channel(STREAM_CHANNEL),
        this.instance,
      ]);
    await this.db.query(
      em,
      `INSERT INTO stream_events (topic, entity_id, deleted, created_at) VALUES ${rows.join(', ')}`,
      params,
    );
  }
}
