import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ApplicationReader } from '../../system/application.reader';
import { AssetReader } from '../asset.reader';
import { RecordAssetActivityHandler } from '../events/asset-activity.event';
import { ActivitiesWire, activityWire } from '../wire/activity.wire';

/**
 * What happened to one asset, the latest MAX_ACTIVITIES, most recent first: 404 when unknown,
 * 410 once deleted. This instance's activities still waiting for their batch are written first.
 */
export class ListAssetActivitiesQuery extends Query<ActivitiesWire> {
  constructor(readonly assetId: string) {
    super();
  }
}

const MAX_ACTIVITIES = 1000;

@QueryHandler(ListAssetActivitiesQuery)
export class ListAssetActivitiesHandler implements IQueryHandler<ListAssetActivitiesQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly applications: ApplicationReader,
    private readonly recorder: RecordAssetActivityHandler,
  ) {}

  async execute({ assetId }: ListAssetActivitiesQuery): Promise<ActivitiesWire> {
    await this.recorder.flush();
    return this.db.read(async (em) => {
      const asset = await this.reader.one(em, assetId);
      const rows = await this.reader.activities(em, assetId, MAX_ACTIVITIES);
      const applications = new Map(
        (
          await this.applications.byIds(
            em,
            rows.map((r) => r.applicationId),
          )
        ).map((a) => [a.id, a]),
      );
      for (const row of rows) row.application = applications.get(row.applicationId)!;
      return { iterable: rows.map((row) => activityWire(row, asset)) };
    });
  }
}
