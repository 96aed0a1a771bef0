import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { namedTimes, nearness, withoutTimes } from '../../intelligence/text/time-words';
import { fusedScores } from '../../intelligence/text/rank-fusion';
import { MemoryVectorSearch } from '../memory-vector-search';
import {
  LinkedMemoryRecord,
  MemoryHit,
  WorkstreamSummaryReader,
  memorySearchTerms,
} from '../workstream-summary.reader';
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
 * to it (`now`: what relative times are relative to, now when left out). With an embedding model
 * configured the memories nearest to the query in it are fused in (MemoryVectorSearch).
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
    private readonly vectors: MemoryVectorSearch,
  ) {}

  async execute({
    query,
    exact,
    limit,
    now,
  }: SearchWorkstreamSummariesQuery): Promise<SearchedWorkstreamSummariesWire> {
    const named = exact ? [] : namedTimes(query, now ?? new Date());
    // A query of time words alone ("May 2nd") is searched as it is.
    const rest = named.length ? withoutTimes(query, named) : query;
    const times = memorySearchTerms(rest).length ? named : [];
    const words = times.length ? rest : query;
    const pool = times.length ? Math.max(limit, TIME_POOL) : limit;
    // With an embedding model configured: the memories nearest to the words in it (over all of
    // them), fused (reciprocal rank) with the full-text hits, so one sharing no word is found.
    const near = exact ? [] : await this.vectors.nearest(words, pool);
    let hits = await this.db.read(async (em) => {
      const lexical = await this.reader.searchLinked(em, words, pool);
      if (!near.length) return lexical;
      const byId = new Map<string, MemoryHit & LinkedMemoryRecord>(lexical.map((hit) => [hit.id, hit]));
      const missing = near.filter((id) => !byId.has(id));
      for (const record of await this.reader.liveLinked(em, missing)) byId.set(record.id, { ...record, score: 0 });
      // Equal fused scores: the full-text hit first (a word of the query is in it).
      const lexicalRank = new Map(lexical.map((hit, i) => [hit.id, i]));
      const fused = fusedScores([lexical.map((hit) => hit.id), near.filter((id) => byId.has(id))]).sort(
        (a, b) => b[1] - a[1] || (lexicalRank.get(a[0]) ?? Infinity) - (lexicalRank.get(b[0]) ?? Infinity),
      );
      const top = fused[0]?.[1] || 1;
      return fused.slice(0, pool).map(([id, score]) => ({ ...byId.get(id)!, score: score / top }));
    });
    if (times.length) {
      const timed = hits.map((hit) => ({
        ...hit,
        score: hit.score * (1 - TIME_WEIGHT + TIME_WEIGHT * nearness(hit.about, times)),
      }));
      timed.sort((a, b) => b.score - a.score);
      const top = timed[0]?.score || 1;
      hits = timed.slice(0, limit).map((hit) => ({ ...hit, score: hit.score / top }));
    }
    const iterable = hits.map((hit) => searchedWorkstreamSummaryWire(hit, query));
    return { iterable: exact ? iterable.filter((hit) => hit.exact) : iterable };
  }
}
