import { randomUUID } from 'node:crypto';
import { Database } from '../../common/database/database.service';
import { SettingEntity } from './setting.entity';

/**
 * The id kept under `key` in `settings`, created on first use. Several instances may boot at
 * once on one PostgreSQL: the first insert wins and every instance reads that one.
 */
export function stableId(db: Database, key: string): Promise<string> {
  return db.transaction(async (em) => {
    const existing = await em.findOne(SettingEntity, { where: { key } });
    if (existing) return existing.value;
    await em.createQueryBuilder().insert().into(SettingEntity).values({ key, value: randomUUID() }).orIgnore().execute();
    return (await em.findOneOrFail(SettingEntity, { where: { key } })).value;
  });
}
