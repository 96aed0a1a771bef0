import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { keysetSlice } from '../../../common/database/keyset';
import { ID_LISTING_PAGE, idListingPages, jsonTextCollection } from '../../../common/http/json-stream';
import { indexed } from '../../../common/wire/common.wire';
import { PageRequest, nextCursor } from '../../../common/wire/paging';
import { AssetReader } from '../asset.reader';
import { FlattenedAssetsWire } from '../wire/asset.wire';

/**
 * Ids of every live asset, most recent first, with each id's position in `indices`, streamed;
 * or one page of them when the client pages (`limit`, `cursor`; positions within the page).
 */
export class ListAssetIdentifiersQuery extends Query<StreamableFile | FlattenedAssetsWire> {
  constructor(
    readonly pseudo: boolean,
    readonly page: PageRequest | null = null,
  ) {
    super();
  }
}

@QueryHandler(ListAssetIdentifiersQuery)
export class ListAssetIdentifiersHandler implements IQueryHandler<ListAssetIdentifiersQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  async execute({ pseudo, page }: ListAssetIdentifiersQuery): Promise<StreamableFile | FlattenedAssetsWire> {
    if (page) {
      const { rows, last } = await this.db.read((em) =>
        keysetSlice(this.db, em, AssetReader.listing(pseudo), page.after, page.limit),
      );
      return { ...indexed(rows.map((row) => ({ id: row.id }))), next_cursor: nextCursor(last) };
    }
    return jsonTextCollection(idListingPages(this.reader.walkIds({ pseudo, pageSize: ID_LISTING_PAGE })), {
      indices: true,
    });
  }
}
