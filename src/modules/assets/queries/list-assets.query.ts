import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../asset.reader';
import { AssetsWire, assetWire } from '../wire/asset.wire';

/** Every live asset, most recent first; pseudo assets only when asked. */
export class ListAssetsQuery extends Query<AssetsWire> {
  constructor(
    readonly transferables: boolean,
    readonly pseudo: boolean,
  ) {
    super();
  }
}

@QueryHandler(ListAssetsQuery)
export class ListAssetsHandler implements IQueryHandler<ListAssetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  execute({ transferables, pseudo }: ListAssetsQuery): Promise<AssetsWire> {
    return this.db.read(async (em) => {
      const aggregates = await this.reader.aggregates(em, await this.reader.list(em, { pseudo }));
      return { iterable: aggregates.map((a) => assetWire(a, transferables)) };
    });
  }
}
