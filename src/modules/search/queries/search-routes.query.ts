import { EventBus, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { AssetsSearchedEvent } from '../../assets/events/assets-searched.event';
import { tagKey } from '../../assets/asset-text';
import { SearchEngine, SearchHit } from '../search-engine.service';
import { SearchedAssetsWire, searchedAssetsWire } from '../wire/searched-assets.wire';

/**
 * The SDKs' SearchApi (beyond the core interface): `GET /search/full_text?query=` (exact words
 * only, `pieces search --mode fts`) and `POST /search/tag_based` (assets with the given tags).
 * Results are SearchedAssets without the assets themselves: clients read the identifiers.
 */
export class SearchRouteQuery extends Query<SearchedAssetsWire> {
  constructor(
    readonly search: { kind: 'full_text'; query: string | undefined } | { kind: 'tag_based'; tags: string[] },
    readonly pseudo: boolean,
  ) {
    super();
  }
}

@QueryHandler(SearchRouteQuery)
export class SearchRouteHandler implements IQueryHandler<SearchRouteQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: SearchEngine,
    private readonly events: EventBus,
  ) {}

  async execute({ search, pseudo }: SearchRouteQuery): Promise<SearchedAssetsWire> {
    let hits: SearchHit[];
    let text: string;
    if (search.kind === 'full_text') {
      text = search.query?.trim() ?? '';
      if (!text) throw new InvalidInput('give the text to search for (query=...)');
      hits = await this.db.read((em) => this.engine.fullText(em, text, { pseudo }));
    } else {
      const tags = [...new Set(search.tags.map(tagKey).filter(Boolean))];
      if (tags.length === 0) throw new InvalidInput('give at least one tag with text');
      text = tags.join(', ');
      hits = await this.db.read((em) => this.engine.search(em, { tags, scope: { pseudo } }));
    }
    this.events.publish(
      new AssetsSearchedEvent(
        hits.map((h) => h.aggregate.asset.id),
        text,
      ),
    );
    return searchedAssetsWire(hits, null);
  }
}
