import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { textOf } from '../../assets/asset-text';
import { AssetDto } from '../../assets/dto/asset.dto';
import { AssetsWire, assetWire } from '../../assets/wire/asset.wire';
import { SearchEngine } from '../search-engine.service';

/** How many assets related / recommended answer. */
export const SIMILAR_LIMIT = 20;

/** What an input asset contributes: its id (its indexed text is used when known) and any text it carries. */
export function seedOf(asset: AssetDto, weight: number): { id: string; text: string; weight: number } {
  const texts = [asset.name ?? '', ...(asset.formats?.iterable ?? []).map((f) => textOf(f.fragment?.string) ?? '')];
  return { id: asset.id.toLowerCase(), text: texts.join('\n'), weight };
}

/** GET|POST /assets/related: the assets most similar to the given ones (never the given ones). */
export class RelatedAssetsQuery extends Query<AssetsWire> {
  constructor(readonly assets: AssetDto[]) {
    super();
  }
}

@QueryHandler(RelatedAssetsQuery)
export class RelatedAssetsHandler implements IQueryHandler<RelatedAssetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: SearchEngine,
  ) {}

  async execute({ assets }: RelatedAssetsQuery): Promise<AssetsWire> {
    if (assets.length === 0) return { iterable: [] };
    const similar = await this.db.read((em) =>
      this.engine.similar(
        em,
        assets.map((a) => seedOf(a, 1)),
        SIMILAR_LIMIT,
      ),
    );
    return { iterable: similar.map((a) => assetWire(a, true)) };
  }
}
