import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ID_LISTING_PAGE, idListingPages, jsonTextCollection } from '../../../common/http/json-stream';
import { AssetReader } from '../asset.reader';
import { PseudoAssetsWire } from '../wire/asset.wire';

/** Ids of the live pseudo assets only, most recent first (PseudoAssets), streamed. */
export class ListPseudoAssetsQuery extends Query<StreamableFile | PseudoAssetsWire> {}

@QueryHandler(ListPseudoAssetsQuery)
export class ListPseudoAssetsHandler implements IQueryHandler<ListPseudoAssetsQuery> {
  constructor(private readonly reader: AssetReader) {}

  execute(): Promise<StreamableFile> {
    return jsonTextCollection(
      idListingPages(this.reader.walkIds({ pseudo: true, pageSize: ID_LISTING_PAGE, only: 'pseudo' })),
      {
        indices: true,
        under: 'identifiers',
      },
    );
  }
}
