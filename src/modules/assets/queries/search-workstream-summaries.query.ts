import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { namedTimes, nearness, withoutTimes } from '../../intelligence/text/time-words';
import { WorkstreamSummaryReader, memorySearchTerms } from '../workstream-summary.reader';
import { SearchedWorkstreamSummariesWire, searchedWorkstreamSummaryWire } from '../wire/workstream-summary.wire';

/** The hits a search answers over HTTP when it names no limit. */
export const SEARCH_HITS = 100;
/** Hits of a query that names a time, read to be ordered by their words and their nearness to it. */
const TIME_POOL = 150;
/** How much that nearness weighs: a hit's score times (1 - TIME_WEIGHT) + TIME_WEIGHT * nearness (as ask_pieces_ltm). */
const TIME_WEIGHT = 0.5;

/**
 * Full-text search of the live workstream summaries (WorkstreamSummaryReader.search): any word
 * of `query` matches, best first, at most `limit`. `exact`: only the hits containing the whole query as it is.
 * A time the query names ("on May 2nd", "last May", "in 2023") is not searched as words: the
 * best matches of the other words are ordered by their score weighed with their time's nearness
 * to it (`now`: what relative times are relative to, now when left out).
 */
export class SearchWorkstreamSummariesQuery extends Query<SearchedWorkstreamSummariesWire> {
  constructor(
    readonly query: string,
    readonly exact = false,
    readonly limit = SEARCH_HITS,
    readonly now?: Date,
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

  async execute({ query, exact, limit, now }: SearchWorkstreamSummariesQuery): Promise<SearchedWorkstreamSummariesWire> {
    const named = exact ? [] : namedTimes(query, now ?? new Date());
    // A query of time words alone ("May 2nd") is searched as it is.
    const rest = named.length ? withoutTimes(query, named) : query;
    const times = memorySearchTerms(rest).length ? named : [];
    const words = times.length ? rest : query;
    let hits = await this.db.read((em) => this.reader.searchLinked(em, words, times.length ? Math.max(limit, TIME_POOL) : limit));
    if (times.length) {
      const timed = hits.map((hit) => ({ ...hit, score: hit.score * (1 - TIME_WEIGHT + TIME_WEIGHT * nearness(hit.about, times)) }));
      timed.sort((a, b) => b.score - a.score);
      const top = timed[0]?.score || 1;
      hits = timed.slice(0, limit).map((hit) => ({ ...hit, score: hit.score / top }));
    }
    const iterable = hits.map((hit) => searchedWorkstreamSummaryWire(hit, query));
    return { iterable: exact ? iterable.filter((hit) => hit.exact) : iterable };
  }
}
