import { EventBus, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { AssetActivityEvent } from '../events/asset-activity.event';
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
    private readonly events: EventBus,
  ) {}

  async execute({ assetId, transferables, viewed }: GetAssetQuery): Promise<AssetWire> {
    const asset = await this.db.read(async (em) => assetWire(await this.reader.one(em, assetId), transferables));
    if (viewed) this.events.publish(new AssetActivityEvent(assetId, 'viewed'));
    return asset;
  }
}
