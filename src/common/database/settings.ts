import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from './database.service';
import { SettingEntity } from './setting.entity';

/** Small per-installation values (`settings`): the local user's id, the outbox's pruning mark. */
@Injectable()
export class Settings {
  constructor(private readonly db: Database) {}

  /**
   * The id kept under `key`, created on first use. Several instances may boot at once on one
   * PostgreSQL: the first insert wins and every instance reads that one.
   */
  stableId(key: string): Promise<string> {
    return this.db.transaction(async (em) => {
      const existing = await em.findOne(SettingEntity, { where: { key } });
      if (existing) return existing.value;
      await em
        .createQueryBuilder()
        .insert()
        .into(SettingEntity)
        .values({ key, value: randomUUID() })
        .orIgnore()
        .execute();
      return (await em.findOneOrFail(SettingEntity, { where: { key } })).value;
    });
  }

  /** The number kept under `key` (0 when there is none). */
  async number(em: EntityManager, key: string): Promise<number> {
    const [row] = await this.db.query<{ value: string }>(
      em,
      `SELECT value FROM settings WHERE key = ${this.db.param(1)}`,
      [key],
    );
    return row ? Number(row.value) : 0;
  }

  /** Keeps `value` under `key` unless a larger number is there already (concurrent writers agree on the largest). */
  async raise(em: EntityManager, key: string, value: number): Promise<void> {
    const int = this.db.dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
    await this.db.query(
      em,
      `INSERT INTO settings (key, value) VALUES (${this.db.param(1)}, ${this.db.param(2)}) ON CONFLICT (key) DO UPDATE SET value =
         CASE WHEN CAST(settings.value AS ${int}) > CAST(excluded.value AS ${int}) THEN settings.value ELSE excluded.value END`,
      [key, String(value)],
    );
  }
}
