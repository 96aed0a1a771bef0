import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { nowIso } from '../../common/wire/common.wire';

/** A message relayed to the instance holding its session. */
export interface RelayedMessage {
  id: string;
  sessionId: string;
  message: string;
}

/** PostgreSQL NOTIFY channel that wakes the instance a message is relayed to (payload: its instance id). */
export const MCP_CHANNEL = 'trove_mcp';

/**
 * The MCP module's tables: which instance holds each SSE session (`mcp_sessions`, refreshed while
 * it lives), and the messages relayed to a session's instance (`mcp_relay`, removed once
 * delivered). Together they let a session's POSTs reach any instance sharing the database.
 */
@Injectable()
export class McpSessionStore {
  constructor(private readonly db: Database) {}

  opened(id: string, instance: string, client: string): Promise<void> {
    const at = nowIso();
    return this.db.transaction(async (em) => {
      await this.db.query(
        em,
        `INSERT INTO mcp_sessions (id, instance_id, client, created_at, seen_at) VALUES (${this.db.sql.params(5)})`,
        [id, instance, client, at, at],
      );
    });
  }

  closed(id: string): Promise<void> {
    return this.db.transaction(async (em) => {
      await this.db.query(em, `DELETE FROM mcp_sessions WHERE id = ${this.db.sql.param(1)}`, [id]);
    });
  }

  /** Marks every session of the instance as alive now, and forgets sessions not seen since `staleBefore` (an instance that died). */
  refresh(instance: string, staleBefore: string): Promise<void> {
    const p = (n: number) => this.db.sql.param(n);
    return this.db.transaction(async (em) => {
      await this.db.query(em, `UPDATE mcp_sessions SET seen_at = ${p(1)} WHERE instance_id = ${p(2)}`, [
        nowIso(),
        instance,
      ]);
      await this.db.query(em, `DELETE FROM mcp_sessions WHERE seen_at < ${p(1)}`, [staleBefore]);
      await this.db.query(em, `DELETE FROM mcp_relay WHERE created_at < ${p(1)}`, [staleBefore]);
    });
  }

  /** Everything of this instance, at shutdown. */
  async forgetInstance(instance: string): Promise<void> {
    await this.db.transaction(async (em) => {
      await this.db.query(em, `DELETE FROM mcp_sessions WHERE instance_id = ${this.db.sql.param(1)}`, [instance]);
    });
  }

  /** The instance holding a session seen since `aliveSince`, or null. */
  async holder(id: string, aliveSince: string): Promise<string | null> {
    const rows = await this.db.read((em) =>
      this.db.query<{ instance_id: string }>(
        em,
        `SELECT instance_id FROM mcp_sessions WHERE id = ${this.db.sql.param(1)} AND seen_at >= ${this.db.sql.param(2)}`,
        [id, aliveSince],
      ),
    );
    return rows[0]?.instance_id ?? null;
  }

  /** Queues a message for the instance holding its session and, on PostgreSQL, wakes that instance at commit. */
  relay(instance: string, sessionId: string, message: unknown): Promise<void> {
    return this.db.transaction(async (em) => {
      await this.db.query(
        em,
        `INSERT INTO mcp_relay (instance_id, session_id, message, created_at) VALUES (${this.db.sql.params(4)})`,
        [instance, sessionId, JSON.stringify(message), nowIso()],
      );
      if (this.db.dialect === 'postgres')
        await this.db.query(em, `SELECT pg_notify($1, $2)`, [this.db.channel(MCP_CHANNEL), instance]);
    });
  }

  /** Takes the messages relayed to the instance, oldest first. */
  take(instance: string): Promise<RelayedMessage[]> {
    return this.db.transaction(async (em) => {
      const rows = await this.db.query<{ id: string | number; session_id: string; message: string }>(
        em,
        `SELECT id, session_id, message FROM mcp_relay WHERE instance_id = ${this.db.sql.param(1)} ORDER BY id LIMIT 500`,
        [instance],
      );
      if (rows.length === 0) return [];
      // By id: on PostgreSQL a lower id may commit after a higher one was read.
      await this.db.query(
        em,
        `DELETE FROM mcp_relay WHERE id IN (${this.db.sql.params(rows.length)})`,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ id: String(r.id), sessionId: r.session_id, message: r.message }));
    });
  }

  /** Whether anything waits for the instance (a cheap read before taking). */
  async pending(instance: string): Promise<boolean> {
    const rows = await this.db.read((em) =>
      this.db.query(em, `SELECT 1 AS one FROM mcp_relay WHERE instance_id = ${this.db.sql.param(1)} LIMIT 1`, [
        instance,
      ]),
    );
    return rows.length > 0;
  }
}
