import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { toJson } from '../../../common/http/json-writers';
import { jsonCollection } from '../../../common/http/json-stream';
import { PageRequest, nextCursor } from '../../../common/wire/paging';
import { AssetReader } from '../asset.reader';
import { AssetsWire, assetWire } from '../wire/asset.wire';

/**
 * Every live asset, most recent first (pseudo assets only when asked), streamed a page at a
 * time; or one page of them when the client pages (`limit`, `cursor`).
 */
export class ListAssetsQuery extends Query<StreamableFile | AssetsWire> {
  constructor(
    readonly transferables: boolean,
    readonly pseudo: boolean,
    readonly page: PageRequest | null = null,
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

  async execute({ transferables, pseudo, page }: ListAssetsQuery): Promise<StreamableFile | AssetsWire> {
    if (page) {
      const { aggregates, last } = await this.db.read((em) => this.reader.page(em, { pseudo, ...page }));
      return { iterable: aggregates.map((a) => assetWire(a, transferables)), next_cursor: nextCursor(last) };
    }
    return jsonCollection(this.reader.walk({ pseudo }), { item: (a) => toJson(assetWire(a, transferables)) });
  }
}
