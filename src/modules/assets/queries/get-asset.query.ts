import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { AssetWire, assetWire } from '../wire/asset.wire';

/** One asset: 404 when unknown, 410 once deleted. */
export class GetAssetQuery extends Query<AssetWire> {
  constructor(
    readonly assetId: string,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@QueryHandler(GetAssetQuery)
export class GetAssetHandler implements IQueryHandler<GetAssetQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  execute({ assetId, transferables }: GetAssetQuery): Promise<AssetWire> {
    return this.db.read(async (em) => assetWire(await this.reader.one(em, assetId), transferables));
  }
}
