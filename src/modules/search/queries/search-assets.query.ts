import { EventBus, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { AssetsSearchedEvent } from '../../assets/events/assets-searched.event';
import { tagKey } from '../../assets/asset-text';
import { SearchEngine } from '../search-engine.service';
import { SearchedAssetsWire, searchedAssetsWire } from '../wire/searched-assets.wire';

/** GET /assets/search: a fuzzy query, a tag search, or both (intersected). */
export class SearchAssetsQuery extends Query<SearchedAssetsWire> {
  constructor(
    readonly query: string | undefined,
    /** Comma-separated tags as sent. */
    readonly searchableTags: string | undefined,
    readonly transferables: boolean,
    readonly pseudo: boolean,
  ) {
    super();
  }
}

/** "a, b,,c" -> ["a", "b", "c"] normalised; [] when nothing usable. */
function parseTags(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? '')
        .split(',')
        .map(tagKey)
        .filter((t) => t.length > 0),
    ),
  ];
}

@QueryHandler(SearchAssetsQuery)
export class SearchAssetsHandler implements IQueryHandler<SearchAssetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: SearchEngine,
    private readonly events: EventBus,
  ) {}

  async execute({ query, searchableTags, transferables, pseudo }: SearchAssetsQuery): Promise<SearchedAssetsWire> {
    const text = query?.trim() ?? '';
    const tags = parseTags(searchableTags);
    if (!text && tags.length === 0) {
      throw new InvalidInput('give a search query (query=...) or tags (searchable_tags=a,b), or both');
    }
    const hits = await this.db.read((em) =>
      this.engine.search(em, { query: text, tags: tags.length ? tags : undefined, scope: { pseudo } }),
    );
    this.events.publish(
      new AssetsSearchedEvent(
        hits.map((h) => h.aggregate.asset.id),
        text || tags.join(', '),
      ),
    );
    return searchedAssetsWire(hits, transferables);
  }
}
