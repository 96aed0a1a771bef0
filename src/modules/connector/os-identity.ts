import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Settings } from '../../common/database/settings';

const OS_ID_KEY = 'os.id';

/** The id of this installation, reported as Context.os: created once and kept in `settings`. */
@Injectable()
export class OsIdentity implements OnApplicationBootstrap {
  private osId: string;

  constructor(private readonly settings: Settings) {}

  get id(): string {
    return this.osId;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.osId = await this.settings.stableId(OS_ID_KEY);
  }
}
