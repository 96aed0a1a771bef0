import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { jsonCollection } from '../../../common/http/json-stream';
import { AssetReader } from '../asset.reader';
import { PseudoAssetsWire } from '../wire/asset.wire';
import { ID_PAGE, idItem } from './list-asset-identifiers.query';

/** Ids of the live pseudo assets only, most recent first (PseudoAssets), streamed. */
export class ListPseudoAssetsQuery extends Query<StreamableFile | PseudoAssetsWire> {}

@QueryHandler(ListPseudoAssetsQuery)
export class ListPseudoAssetsHandler implements IQueryHandler<ListPseudoAssetsQuery> {
  constructor(private readonly reader: AssetReader) {}

  execute(): Promise<StreamableFile> {
    return jsonCollection(this.reader.walkIds({ pseudo: true, pageSize: ID_PAGE, only: 'pseudo' }), { item: idItem, id: (id) => id, under: 'identifiers' });
  }
}
