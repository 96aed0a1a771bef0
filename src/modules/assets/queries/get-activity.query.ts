import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ApplicationReader } from '../../system/application.reader';
import { activityWires } from '../activity-wires';
import { AssetReader } from '../asset.reader';
import { RecordAssetActivityHandler } from '../events/asset-activity.event';
import { RecordsReader } from '../records.reader';
import { ActivityWire } from '../wire/activity.wire';

/** GET /activity/{activity}: one activity (404 unknown); this instance's waiting activities are written first. */
export class GetActivityQuery extends Query<ActivityWire> {
  constructor(readonly id: string) {
    super();
  }
}

@QueryHandler(GetActivityQuery)
export class GetActivityHandler implements IQueryHandler<GetActivityQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
    private readonly assets: AssetReader,
    private readonly applications: ApplicationReader,
    private readonly recorder: RecordAssetActivityHandler,
  ) {}

  async execute({ id }: GetActivityQuery): Promise<ActivityWire> {
    await this.recorder.flush();
    return this.db.read(
      async (em) => (await activityWires(em, [await this.records.activity(em, id)], this.applications, this.assets))[0],
    );
  }
}
