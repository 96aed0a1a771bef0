import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';

/** The health check's one statement: whether the database answers at all (no table). */
@Injectable()
export class HealthReader {
  constructor(private readonly db: Database) {}

  /** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
  async ping(): Promise<void> {
    await this.db.read((em) => em.query('SELECT 1'));
  }
}
