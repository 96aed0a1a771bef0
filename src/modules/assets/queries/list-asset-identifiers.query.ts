import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
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
    const assets = await this.db.read((em) => this.reader.list(em, { pseudo }));
    return {
      iterable: assets.map((a) => ({ id: a.id })),
      indices: Object.fromEntries(assets.map((a, index) => [a.id, index])),
    };
  }
}
