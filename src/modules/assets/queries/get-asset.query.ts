import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { AssetActivityEvent, RecordAssetActivityHandler } from '../events/asset-activity.event';
import { AssetWire, assetWire } from '../wire/asset.wire';

/** One asset: 404 when unknown, 410 once deleted. `viewed`: a client shows it to the user (records a `viewed` activity). */
export class GetAssetQuery extends Query<AssetWire> {
  constructor(
    readonly assetId: string,
    readonly transferables: boolean,
    readonly viewed = false,
  ) {
    super();
  }
}

@QueryHandler(GetAssetQuery)
export class GetAssetHandler implements IQueryHandler<GetAssetQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly activities: RecordAssetActivityHandler,
  ) {}

  async execute({ assetId, transferables, viewed }: GetAssetQuery): Promise<AssetWire> {
    const asset = await this.db.read(async (em) => assetWire(await this.reader.one(em, assetId), transferables));
    // A view changes nothing else: it goes straight to the activity recorder, not through the
    // event bus (whose every subscriber filters every event; ~4% of a read's CPU).
    if (viewed) this.activities.handle(new AssetActivityEvent(assetId, 'viewed'));
    return asset;
  }
}
