import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { IsNull } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { AssetEntity } from '../asset.entity';
import { PseudoAssetsWire } from '../wire/asset.wire';

/** Ids of the live pseudo assets only, most recent first (PseudoAssets). */
export class ListPseudoAssetsQuery extends Query<PseudoAssetsWire> {}

@QueryHandler(ListPseudoAssetsQuery)
export class ListPseudoAssetsHandler implements IQueryHandler<ListPseudoAssetsQuery> {
  constructor(private readonly db: Database) {}

  async execute(): Promise<PseudoAssetsWire> {
    const assets = await this.db.read((em) =>
      em.find(AssetEntity, { select: { id: true }, where: { deletedAt: IsNull(), pseudo: true }, order: { createdAt: 'DESC', id: 'DESC' } }),
    );
    return {
      identifiers: {
        iterable: assets.map((a) => ({ id: a.id })),
        indices: Object.fromEntries(assets.map((a, index) => [a.id, index])),
      },
    };
  }
}
