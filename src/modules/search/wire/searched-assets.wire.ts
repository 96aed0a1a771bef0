import { ApiProperty } from '@nestjs/swagger';
import { SearchedMatchEnum } from '../../../common/wire/enums';
import { StoreLabelWire } from '../../../common/wire/store-label.wire';
import { AssetWire, assetWire } from '../../assets/wire/asset.wire';
import { SearchHit } from '../search-engine.service';

export class SearchedAssetWire {
  asset?: AssetWire;
  exact: boolean;
  /** Relevance in (0, 1]; results are ordered by it, best first. */
  score: number;
  /** The field that matched; MULTIPLE when several did, FUZZY for typo-corrected matches. */
  @ApiProperty({ enum: [...SearchedMatchEnum] })
  match: string;
  /** The asset's id. */
  identifier: string;
  /** Where it comes from, in a search across stores (`X-Trove-Space: *`) only. */
  space?: StoreLabelWire;
}

export class SearchedAssetsWire {
  iterable: SearchedAssetWire[];
  /** How many results are suggestions (substring, typo-corrected or partial matches). */
  suggested: number;
  /** How many results matched every word (and every tag) exactly. */
  exact: number;
}

export class AssetsSearchWithFiltersOutputWire {
  results: SearchedAssetsWire;
}

/** `withContent` null: results without their assets (the SearchApi routes answer identifiers). */
export function searchedAssetsWire(hits: SearchHit[], withContent: boolean | null): SearchedAssetsWire {
  const exact = hits.filter((h) => h.exact).length;
  return {
    iterable: hits.map((h) => ({
      asset: withContent === null ? undefined : assetWire(h.aggregate, withContent),
      exact: h.exact,
      score: h.score,
      match: h.match,
      identifier: h.aggregate.asset.id,
    })),
    suggested: hits.length - exact,
    exact,
  };
}
