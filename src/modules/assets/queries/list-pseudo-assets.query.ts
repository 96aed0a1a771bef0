import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { indexed } from '../../../common/wire/common.wire';
import { AssetReader } from '../asset.reader';
import { PseudoAssetsWire } from '../wire/asset.wire';

/** Ids of the live pseudo assets only, most recent first (PseudoAssets). */
export class ListPseudoAssetsQuery extends Query<PseudoAssetsWire> {}

@QueryHandler(ListPseudoAssetsQuery)
export class ListPseudoAssetsHandler implements IQueryHandler<ListPseudoAssetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
  ) {}

  async execute(): Promise<PseudoAssetsWire> {
    const ids = await this.db.read((em) => this.reader.pseudoIds(em));
    return { identifiers: indexed(ids.map((id) => ({ id }))) };
  }
}
