import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { stableId } from './stable-id';

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
    this.userId = await stableId(this.db, USER_ID_KEY);
  }
}
