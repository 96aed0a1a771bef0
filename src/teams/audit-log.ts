import { Logger } from '@nestjs/common';
import { AuditEntry, ControlStore } from './control-store';

/** Entries written together; and the longest an entry waits before it is written. */
const BATCH = 200;
const FLUSH_MS = 250;
/** Entries held at most while the control store is failing: beyond, the oldest are dropped (and counted in the log). */
const MAX_PENDING = 50_000;

/**
 * The append-only audit log's writer: entries are queued as requests end and written in batches
 * (a request never waits for its audit line), flushed at close. Pruned to TROVE_AUDIT_RETENTION_DAYS
 * every hour.
 */
export class AuditLog {
  private readonly logger = new Logger('Audit');
  private pending: AuditEntry[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly pruner: NodeJS.Timeout;
  private dropped = 0;

  constructor(
    private readonly control: ControlStore,
    retentionDays: number,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS).unref();
    const prune = () =>
      void control
        .prune(retentionDays)
        .catch((error: Error) => this.logger.warn(`audit pruning failed: ${error.message}`));
    prune();
    this.pruner = setInterval(prune, 3_600_000).unref();
  }

  append(entry: Omit<AuditEntry, 'at'>): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push({ at: new Date().toISOString(), ...entry });
    if (this.pending.length >= BATCH) void this.flush();
  }

  flush(): Promise<void> {
    if (this.flushing || !this.pending.length) return this.flushing ?? Promise.resolve();
    const batch = this.pending.splice(0, BATCH);
    this.flushing = this.control
      .appendAudit(batch)
      .catch((error: Error) => {
        this.pending.unshift(...batch);
        this.logger.warn(`audit entries not written yet (${error.message}); retrying`);
      })
      .finally(() => {
        this.flushing = null;
        if (this.dropped) {
          this.logger.error(`${this.dropped} audit entries dropped while the control store was failing`);
          this.dropped = 0;
        }
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.pruner);
    for (let tries = 0; this.pending.length && tries < 100; tries++) {
      await this.flush();
      await this.flushing;
    }
  }
}
