import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database.service';
import { Settings } from '../database/settings';
import { StreamEvent, StreamTopicName } from './outbox';

/** Settings key holding the highest outbox id deleted by pruning. */
const PRUNED_THROUGH = 'stream_pruned_through';

interface Row {
  id: number | string;
  topic: string;
  entity_id: string;
  deleted: boolean | number;
}

/** The reading side of the outbox (`stream_events`): the streams' tailers, resumes and pruning. */
@Injectable()
export class OutboxReader {
  constructor(
    private readonly db: Database,
    private readonly settings: Settings,
  ) {}

  /** Highest committed event id (0 when there is none). */
  async head(em: EntityManager): Promise<number> {
    const [row] = await this.db.query<{ id: number | string | null }>(em, 'SELECT MAX(id) AS id FROM stream_events');
    return Number(row?.id ?? 0);
  }

  /** Events after `after`, oldest first, at most `limit`. */
  async after(em: EntityManager, after: number, limit: number): Promise<StreamEvent[]> {
    const rows = await this.db.query<Row>(
      em,
      `SELECT id, topic, entity_id, deleted FROM stream_events WHERE id > ${this.db.param(1)} ORDER BY id LIMIT ${this.db.param(2)}`,
      [after, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      topic: r.topic as StreamTopicName,
      entityId: r.entity_id,
      deleted: r.deleted === true || r.deleted === 1,
    }));
  }

  /** Highest id removed by pruning: a resume from below it cannot be served (0 when nothing was pruned). */
  prunedThrough(em: EntityManager): Promise<number> {
    return this.settings.number(em, PRUNED_THROUGH);
  }

  /**
   * Deletes events created before `cutoff` (ISO time), always keeping the newest one, and
   * records the highest deleted id first (in the same transaction). Returns how many went.
   */
  async prune(cutoff: string): Promise<number> {
    return this.db.transaction(async (em) => {
      const [row] = await this.db.query<{ id: number | string | null }>(
        em,
        `SELECT MAX(id) AS id FROM stream_events WHERE created_at < ${this.db.param(1)} AND id < (SELECT MAX(id) FROM stream_events)`,
        [cutoff],
      );
      const through = Number(row?.id ?? 0);
      if (!through) return 0;
      await this.settings.raise(em, PRUNED_THROUGH, through);
      const deleted = await this.db.query<{ id: unknown }>(
        em,
        `DELETE FROM stream_events WHERE id <= ${this.db.param(1)} RETURNING id`,
        [through],
      );
      return deleted.length;
    });
  }
}
