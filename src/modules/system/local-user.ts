import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '../../common/database/database.service';
import { SettingEntity } from './setting.entity';

const USER_ID_KEY = 'user.id';

/** The one local user of an installation; its id is created once and kept in `settings`. */
@Injectable()
export class LocalUser implements OnApplicationBootstrap {
  private userId: string;

  constructor(private readonly db: Database) {}

  get id(): string {
    return this.userId;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.userId = await this.db.transaction(async (em) => {
      const existing = await em.findOne(SettingEntity, { where: { key: USER_ID_KEY } });
      if (existing) return existing.value;
      const id = randomUUID();
      // Several instances may boot at once on one PostgreSQL: the first insert wins.
      await em.createQueryBuilder().insert().into(SettingEntity).values({ key: USER_ID_KEY, value: id }).orIgnore().execute();
      return (await em.findOneOrFail(SettingEntity, { where: { key: USER_ID_KEY } })).value;
    });
  }
}
