import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';
import { SearchedWorkstreamSummariesWire, searchedWorkstreamSummaryWire } from '../wire/workstream-summary.wire';

/** The hits a search answers over HTTP when it names no limit. */
export const SEARCH_HITS = 100;

/**
 * Full-text search of the live workstream summaries (WorkstreamSummaryReader.search): any word
 * of `query` matches, best first, at most `limit`. `exact`: only the hits containing the whole query as it is.
 */
export class SearchWorkstreamSummariesQuery extends Query<SearchedWorkstreamSummariesWire> {
  constructor(
    readonly query: string,
    readonly exact = false,
    readonly limit = SEARCH_HITS,
  ) {
    super();
  }
}

@QueryHandler(SearchWorkstreamSummariesQuery)
export class SearchWorkstreamSummariesHandler implements IQueryHandler<SearchWorkstreamSummariesQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: WorkstreamSummaryReader,
  ) {}

  async execute({ query, exact, limit }: SearchWorkstreamSummariesQuery): Promise<SearchedWorkstreamSummariesWire> {
    const hits = await this.db.read((em) => this.reader.searchLinked(em, query, limit));
    const iterable = hits.map((hit) => searchedWorkstreamSummaryWire(hit, query));
    return { iterable: exact ? iterable.filter((hit) => hit.exact) : iterable };
  }
}
