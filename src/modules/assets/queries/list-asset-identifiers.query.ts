import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { indexed } from '../../../common/wire/common.wire';
import { AssetReader } from '../asset.reader';
import { FlattenedAssetsWire } from '../wire/asset.wire';

/** Ids of every live asset, most recent first, with each id's position in `indices`. */
export class ListAssetIdentifiersQuery extends Query<FlattenedAssetsWire> {
  constructor(readonly pseudo: boolean) {
    super();
  }
}

@QueryHandler(ListAssetIdentifiersQuery)
export class ListAssetIdentifiersHandler implements IQueryHandler<ListAssetIdentifiersQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  async execute({ pseudo }: ListAssetIdentifiersQuery): Promise<FlattenedAssetsWire> {
    const ids = await this.db.read((em) => this.reader.liveIds(em, { pseudo }));
    return indexed(ids.map((id) => ({ id })));
  }
}
