import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { stableId } from '../system/stable-id';

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
    this.osId = await stableId(this.db, OS_ID_KEY);
  }
}
