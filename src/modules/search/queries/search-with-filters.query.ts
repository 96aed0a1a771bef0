import { EventBus, IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetsSearchedEvent } from '../../assets/events/assets-searched.event';
import { AssetFiltersDto, AssetsSearchWithFiltersInputDto } from '../dto/search-with-filters.dto';
import { SearchEngine, SearchedMatch } from '../search-engine.service';
import { AssetsSearchWithFiltersOutputWire, searchedAssetsWire } from '../wire/searched-assets.wire';

/**
 * POST /assets/search: an optional fuzzy query over an optional search space (uuids), narrowed
 * by filters (AND, or OR when the filters say so). No query: the matching assets, most
 * recently updated first.
 */
export class SearchWithFiltersQuery extends Query<AssetsSearchWithFiltersOutputWire> {
  constructor(
    readonly input: AssetsSearchWithFiltersInputDto | undefined,
    readonly transferables: boolean,
    readonly pseudo: boolean,
  ) {
    super();
  }
}

function phrases(filters: AssetFiltersDto | undefined): string[] {
  return (filters?.iterable ?? []).flatMap((f) => [
    ...(f.phrase?.value ? [f.phrase.value] : []),
    ...phrases(f.operations),
  ]);
}

function filterMatches(filters: AssetFiltersDto | undefined): SearchedMatch[] {
  return (filters?.iterable ?? []).flatMap((f) => [
    ...(f.tags?.length ? (['TAGS'] as const) : []),
    ...(f.websites?.length ? (['WEBSITES'] as const) : []),
    ...filterMatches(f.operations),
  ]);
}

@QueryHandler(SearchWithFiltersQuery)
export class SearchWithFiltersHandler implements IQueryHandler<SearchWithFiltersQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: SearchEngine,
    private readonly events: EventBus,
  ) {}

  async execute({ input, transferables, pseudo }: SearchWithFiltersQuery): Promise<AssetsSearchWithFiltersOutputWire> {
    const space = input?.space
      ? [...new Set(input.space.identifers.iterable.map((i) => i.id.toLowerCase()))]
      : undefined;
    const hits = await this.db.read((em) =>
      this.engine.search(em, {
        query: input?.query,
        scope: { pseudo, space, filters: input?.filters, casing: input?.casing ?? false },
        phrases: phrases(input?.filters),
        filterMatches: filterMatches(input?.filters),
      }),
    );
    this.events.publish(
      new AssetsSearchedEvent(
        hits.map((h) => h.aggregate.asset.id),
        input?.query?.trim() ?? '',
      ),
    );
    return { results: searchedAssetsWire(hits, transferables) };
  }
}
