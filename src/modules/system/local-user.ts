import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Settings } from '../../common/database/settings';

const USER_ID_KEY = 'user.id';

/** The one local user of an installation; its id is created once and kept in `settings`. */
@Injectable()
export class LocalUser implements OnApplicationBootstrap {
  private userId: string;

  constructor(private readonly settings: Settings) {}

  get id(): string {
    return this.userId;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.userId = await this.settings.stableId(USER_ID_KEY);
  }
}
