import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { idListingPages, jsonCollection, jsonTextCollection, mapPages } from '../../../common/http/json-stream';
import { ApplicationReader } from '../../system/application.reader';
import { activityWires } from '../activity-wires';
import { AssetReader } from '../asset.reader';
import { RecordAssetActivityHandler } from '../events/asset-activity.event';
import { RecordsReader } from '../records.reader';

/**
 * GET /activities (`ids` false): every activity, most recent first, of every asset and of none,
 * streamed a page at a time; GET /activity/identifiers (`ids` true): their ids (FlattenedActivities).
 * This instance's activities still waiting for their batch are written first.
 */
export class ListActivitiesQuery extends Query<StreamableFile> {
  constructor(readonly ids = false) {
    super();
  }
}

@QueryHandler(ListActivitiesQuery)
export class ListActivitiesHandler implements IQueryHandler<ListActivitiesQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
    private readonly assets: AssetReader,
    private readonly applications: ApplicationReader,
    private readonly recorder: RecordAssetActivityHandler,
  ) {}

  async execute({ ids }: ListActivitiesQuery): Promise<StreamableFile> {
    await this.recorder.flush();
    if (ids) {
      const pages = mapPages(this.records.walkActivities(2000), async (page) => page.map((a) => a.id));
      return jsonTextCollection(idListingPages(pages));
    }
    const pages = mapPages(this.records.walkActivities(), (page) =>
      this.db.read((em) => activityWires(em, page, this.applications, this.assets)),
    );
    return jsonCollection(pages, { item: (wire) => JSON.stringify(wire) });
  }
}
