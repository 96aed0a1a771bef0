import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetAggregate, assetWire } from '../../assets/wire/asset.wire';
import { SearchEngine } from '../../search/search-engine.service';
import { ConnectedApplications } from '../connected-applications';
import { SeededConnectorCreationDto } from '../dto/connector.dto';
import { RELATED_THRESHOLD, REUSE_THRESHOLD, fingerprint, similarity, worthSaving } from '../snippet-similarity';
import { snippetText } from '../snippet-text';
import { SuggestionWire } from '../wire/suggestion.wire';

/** Saved assets considered per snippet (from the search index, by the snippet's key terms). */
const CANDIDATES = 50;
/** Characters of the snippet's first line used when it has no key terms to look up. */
const FALLBACK_QUERY_CHARS = 200;

/**
 * A snippet was copied: is it already saved (reuse, with the duplicates best first), worth
 * saving, or neither? Candidates come from the search index; each is scored against the
 * snippet on normalised text (exact duplicates score 1 whatever their whitespace/indentation).
 */
export class SuggestQuery extends Query<SuggestionWire> {
  constructor(
    readonly applicationId: string,
    readonly creation: SeededConnectorCreationDto | undefined,
  ) {
    super();
  }
}

@QueryHandler(SuggestQuery)
export class SuggestHandler implements IQueryHandler<SuggestQuery> {
  constructor(
    private readonly db: Database,
    private readonly access: ConnectedApplications,
    private readonly engine: SearchEngine,
  ) {}

  async execute({ applicationId, creation }: SuggestQuery): Promise<SuggestionWire> {
    const text = snippetText(creation?.asset, 'a SeededConnectorCreation with asset');
    const snippet = fingerprint(text);
    const scored = await this.db.read(async (em) => {
      await this.access.require(em, applicationId);
      if (!snippet.normalized) return [];
      let candidates: AssetAggregate[] = await this.engine.similar(em, [{ text, weight: 1 }], CANDIDATES);
      if (!candidates.length) {
        const query = snippet.normalized.split('\n')[0].slice(0, FALLBACK_QUERY_CHARS);
        candidates = (await this.engine.search(em, { query, scope: { pseudo: false } })).map((hit) => hit.aggregate);
      }
      return candidates
        .map((aggregate) => ({
          aggregate,
          score: Math.max(0, ...aggregate.formats.map((f) => similarity(snippet, fingerprint(f.raw ?? '')))),
        }))
        .filter((c) => c.score >= RELATED_THRESHOLD)
        .sort((a, b) => b.score - a.score || b.aggregate.asset.updatedAt.localeCompare(a.aggregate.asset.updatedAt));
    });
    const duplicates = scored.filter((c) => c.score >= REUSE_THRESHOLD);
    return {
      reuse: {
        suggested: duplicates.length > 0,
        assets: { iterable: duplicates.map((c) => assetWire(c.aggregate, true)) },
      },
      save: { suggested: duplicates.length === 0 && worthSaving(snippet.normalized) },
      target: { seed: creation!, vector: Math.round((scored[0]?.score ?? 0) * 100) },
      assets: { iterable: scored.map((c) => assetWire(c.aggregate, true)) },
    };
  }
}
