import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { StreamEvent, StreamTopicName } from '../../common/events/outbox';

/** Settings key holding the highest outbox id deleted by pruning. */
const PRUNED_THROUGH = 'stream_pruned_through';

interface Row {
  id: number | string;
  topic: string;
  entity_id: string;
  deleted: boolean | number;
}

/** The SQL of the outbox (`stream_events`) for the tailers, resumes and pruning. */
@Injectable()
export class OutboxReader {
  constructor(private readonly db: Database) {}

  private get pg(): boolean {
    return this.db.dialect === 'postgres';
  }

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
    return rows.map((r) => ({ id: Number(r.id), topic: r.topic as StreamTopicName, entityId: r.entity_id, deleted: r.deleted === true || r.deleted === 1 }));
  }

  /** Highest id removed by pruning: a resume from below it cannot be served (0 when nothing was pruned). */
  async prunedThrough(em: EntityManager): Promise<number> {
    const [row] = await this.db.query<{ value: string }>(em, `SELECT value FROM settings WHERE key = ${this.db.param(1)}`, [PRUNED_THROUGH]);
    return row ? Number(row.value) : 0;
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
      const int = this.pg ? 'BIGINT' : 'INTEGER';
      await this.db.query(
        em,
        `INSERT INTO settings (key, value) VALUES (${this.db.param(1)}, ${this.db.param(2)}) ON CONFLICT (key) DO UPDATE SET value =
           CASE WHEN CAST(settings.value AS ${int}) > CAST(excluded.value AS ${int}) THEN settings.value ELSE excluded.value END`,
        [PRUNED_THROUGH, String(through)],
      );
      const deleted = await this.db.query<{ id: unknown }>(em, `DELETE FROM stream_events WHERE id <= ${this.db.param(1)} RETURNING id`, [through]);
      return deleted.length;
    });
  }
}
