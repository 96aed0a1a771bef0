import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { AssetsWire, assetWire } from '../../assets/wire/asset.wire';
import { InteractedAssetInteractionsDto, SeededAssetsRecommendationDto } from '../dto/recommendation.dto';
import { SearchEngine } from '../search-engine.service';
import { SIMILAR_LIMIT, seedOf } from './related-assets.query';

const DURATION =
  /^P(?!$)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Seconds of an ISO-8601 duration (PT30S) or time interval (start/end), or a 400. */
function viewedSeconds(viewed: string): number {
  const d = DURATION.exec(viewed.trim());
  if (d) {
    const [y, mo, w, day, h, mi, s] = d.slice(1).map((v) => Number(v ?? 0));
    return (((y * 365 + mo * 30 + w * 7 + day) * 24 + h) * 60 + mi) * 60 + s;
  }
  const [start, end] = viewed.split('/');
  const from = Date.parse(start ?? '');
  const to = Date.parse(end ?? '');
  if (end !== undefined && Number.isFinite(from) && Number.isFinite(to) && to >= from) return (to - from) / 1000;
  throw new InvalidInput(
    `interactions.viewed must be an ISO-8601 duration (PT30S) or interval (start/end), not "${viewed}"`,
  );
}

/** How much an interaction says about interest: viewing longer, touching and scrolling count. */
function interactionWeight(interactions: InteractedAssetInteractionsDto | undefined): number {
  if (!interactions) return 1;
  return (
    1 +
    Math.log10(1 + viewedSeconds(interactions.viewed)) +
    (interactions.touched ? 1 : 0) +
    (interactions.scrolled ? 0.5 : 0)
  );
}

/**
 * GET|POST /assets/recommended: assets similar to the ones the user interacted with
 * (interactions paired with assets by index, weighted by interaction), never those assets.
 */
export class RecommendedAssetsQuery extends Query<AssetsWire> {
  constructor(readonly seed: SeededAssetsRecommendationDto | undefined) {
    super();
  }
}

@QueryHandler(RecommendedAssetsQuery)
export class RecommendedAssetsHandler implements IQueryHandler<RecommendedAssetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: SearchEngine,
  ) {}

  async execute({ seed }: RecommendedAssetsQuery): Promise<AssetsWire> {
    const assets = seed?.assets?.iterable ?? [];
    const interactions = seed?.interactions?.iterable ?? [];
    if (interactions.length > assets.length) {
      throw new InvalidInput(
        `interactions are paired with assets by index: ${interactions.length} interactions for ${assets.length} assets`,
      );
    }
    interactions.forEach((interaction, i) => {
      if (interaction.asset && interaction.asset.toLowerCase() !== assets[i].id.toLowerCase()) {
        throw new InvalidInput(
          `interactions.iterable[${i}].asset is ${interaction.asset} but assets.iterable[${i}] is ${assets[i].id}`,
        );
      }
    });
    const seeds = assets.map((asset, i) => seedOf(asset, interactionWeight(interactions[i]?.interactions)));
    if (seeds.length === 0) return { iterable: [] };
    const similar = await this.db.read((em) => this.engine.similar(em, seeds, SIMILAR_LIMIT));
    return { iterable: similar.map((a) => assetWire(a, true)) };
  }
}
