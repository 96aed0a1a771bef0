import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '../../common/database/database.service';
import { SettingEntity } from '../system/setting.entity';

const OS_ID_KEY = 'os.id';

/** The id of this installation, reported as Context.os: created once and kept in `settings`. */
@Injectable()
export class OsIdentity implements OnApplicationBootstrap {
  private osId: string;

  constructor(private readonly db: Database) {}

  get id(): string {
    return this.osId;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.osId = await this.db.transaction(async (em) => {
      const existing = await em.findOne(SettingEntity, { where: { key: OS_ID_KEY } });
      if (existing) return existing.value;
      // Several instances may boot at once on one PostgreSQL: the first insert wins.
      await em.createQueryBuilder().insert().into(SettingEntity).values({ key: OS_ID_KEY, value: randomUUID() }).orIgnore().execute();
      return (await em.findOneOrFail(SettingEntity, { where: { key: OS_ID_KEY } })).value;
    });
  }
}
