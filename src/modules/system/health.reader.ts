import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';

/** The health and readiness checks' one statement: whether the database answers at all (no table). */
@Injectable()
export class HealthReader {
  /** The bounded ping in flight: probes arriving meanwhile share it. */
  private pending: Promise<void> | null = null;

  constructor(private readonly db: Database) {}

  /** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
  async ping(): Promise<void> {
    await this.db.read((em) => em.query('SELECT 1'));
  }

  /**
   * The same ping, rejected when no answer comes within `ms`. One ping at a time: against a
   * database that hangs, a probe every few seconds would otherwise leave a connection attempt
   * (and a pooled connection) behind each time.
   */
  pingWithin(ms: number): Promise<void> {
    this.pending ??= this.ping().finally(() => (this.pending = null));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
    });
    return Promise.race([this.pending, late]).finally(() => clearTimeout(timer));
  }
}
