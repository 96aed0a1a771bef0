import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AssetReader } from '../assets/asset.reader';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { EVIDENCE_CHARS, LexicalRanking, RESULT_LIMIT, WEIGHTS, group } from './lexical-ranking';
import { Retrieval } from './retrieval.service';
import { SearchIndex } from './search-index.service';
import { Scope, SearchStore } from './store/search-store';
import { RRF_K } from '../intelligence/text/rank-fusion';
import { QueryWord, indexText, queryWords } from '../intelligence/text/terms';

export type SearchedMatch =
  'UNKNOWN' | 'TITLE' | 'ANNOTATION' | 'HINT' | 'CONTENT' | 'FUZZY' | 'MULTIPLE' | 'TAGS' | 'WEBSITES' | 'PERSONS';

export interface SearchHit {
  aggregate: AssetAggregate;
  exact: boolean;
  score: number;
  match: SearchedMatch;
}

export interface SearchRequest {
  query?: string;
  /** Normalised lowercase tags: assets having at least one of them. */
  tags?: string[];
  scope: Scope;
  /** Text that must appear for the match field (phrase filters) when there is no query. */
  phrases?: string[];
  /** Fields the filters matched on (tags, websites) when there is no query. */
  filterMatches?: SearchedMatch[];
  /** At most this many hits (20 by default). */
  limit?: number;
}

/** What a query matched with, to name the matched field of each result. */
interface Evidence {
  words: QueryWord[];
  needles: string[];
  corrections: string[];
}

/**
 * Fuzzy search over the index: exact words (identifier parts included), substrings (trigrams)
 * and typo corrections against the index's own vocabulary, fused by reciprocal rank.
 */
@Injectable()
export class SearchEngine {
  constructor(
    private readonly index: SearchIndex,
    private readonly lexical: LexicalRanking,
    private readonly retrieval: Retrieval,
    private readonly reader: AssetReader,
  ) {}

  private get store(): SearchStore {
    return this.index.store;
  }

  async search(em: EntityManager, request: SearchRequest): Promise<SearchHit[]> {
    const query = request.query?.trim() ?? '';
    const tags = request.tags?.length ? [...new Set(request.tags)] : undefined;
    const scope: Scope = tags ? { ...request.scope, anyTags: tags } : request.scope;
    const limit = request.limit ?? RESULT_LIMIT;

    if (!query) {
      if (tags) {
        const found = await this.store.tags(em, tags, scope, limit);
        const aggregates = await this.aggregates(
          em,
          found.map((f) => f.id),
        );
        return found
          .filter((f) => aggregates.has(f.id))
          .map((f) => ({
            aggregate: aggregates.get(f.id)!,
            exact: f.count === tags.length,
            score: f.count / tags.length,
            match: 'TAGS' as const,
          }));
      }
      const ids = await this.store.recent(em, scope, limit);
      const aggregates = await this.aggregates(em, ids);
      const evidence: Evidence = {
        words: [],
        needles: (request.phrases ?? []).map((p) => p.toLowerCase()),
        corrections: [],
      };
      return ids
        .filter((id) => aggregates.has(id))
        .map((id) => {
          const aggregate = aggregates.get(id)!;
          const fields = [...new Set([...matchedFields(aggregate, evidence), ...(request.filterMatches ?? [])])];
          return { aggregate, exact: true, score: 1, match: fields.length > 1 ? 'MULTIPLE' : (fields[0] ?? 'UNKNOWN') };
        });
    }

    const fuzzy = await this.lexical.rank(em, query, scope, limit);
    const { kinds, exact, corrections, words, needles } = fuzzy;
    const best = (Object.values(WEIGHTS) as number[]).reduce((a, b) => a + b, 0) / (RRF_K + 1);
    const normalised = fuzzy.ranked.map(([id, score]): [string, number] => [id, score / best]);
    // A sentence, and any query with an embedding model, goes through retrieval's stages too.
    const { ranked: lexical, asked } = await this.retrieval.searchCandidates(
      em,
      query,
      fuzzy,
      normalised,
      scope,
      limit,
    );
    const ids = lexical.map(([id]) => id);
    const tagCounts = tags
      ? new Map((await this.store.tags(em, tags, { ...scope, space: ids }, ids.length)).map((t) => [t.id, t.count]))
      : null;
    const aggregates = await this.aggregates(em, ids);
    const evidence: Evidence = { words, needles, corrections: [...corrections.values()].flat() };
    const exactSet = new Set(exact);
    const ranked = asked
      ? await this.retrieval.searchOrder(em, query, asked, ids, aggregates, evidence.corrections)
      : lexical;
    return ranked
      .filter(([id]) => aggregates.has(id))
      .map(([id, score]) => {
        const aggregate = aggregates.get(id)!;
        const via = kinds.get(id)!;
        const onlyFuzzy = via.size === 1 && via.has('fuzzy');
        const fields = onlyFuzzy ? [] : matchedFields(aggregate, evidence);
        if (tagCounts) fields.push('TAGS');
        const match: SearchedMatch = fields.length > 1 ? 'MULTIPLE' : (fields[0] ?? (onlyFuzzy ? 'FUZZY' : 'CONTENT'));
        const allTags = !tagCounts || tagCounts.get(id) === tags!.length;
        return { aggregate, exact: exactSet.has(id) && allTags, score: round(score), match };
      });
  }

  /**
   * Full-text search, exact only (GET /search/full_text): assets holding every word of the
   * query, whole or as identifier parts (`getUserName` holds "user name"), ranked by the index
   * (bm25 / ts_rank); no substrings, no typo correction.
   */
  async fullText(em: EntityManager, query: string, scope: Scope): Promise<SearchHit[]> {
    const words = queryWords(query);
    if (words.length === 0) return [];
    const ids = await this.store.words(em, words.map(group), 'AND', scope, RESULT_LIMIT);
    const aggregates = await this.aggregates(em, ids);
    const evidence: Evidence = { words, needles: [], corrections: [] };
    return ids
      .filter((id) => aggregates.has(id))
      .map((id, rank) => {
        const aggregate = aggregates.get(id)!;
        const fields = matchedFields(aggregate, evidence);
        return {
          aggregate,
          exact: true,
          score: round((RRF_K + 1) / (RRF_K + rank + 1)),
          match: fields.length > 1 ? 'MULTIPLE' : (fields[0] ?? 'CONTENT'),
        };
      });
  }

  /**
   * Assets most similar to the given ones: each input's key terms (tf-idf over the index) as
   * an OR query ranked by bm25 / ts_rank, the per-input rankings fused by reciprocal rank
   * weighted by the input's weight. The inputs themselves are excluded.
   */
  async similar(
    em: EntityManager,
    seeds: Array<{ id?: string; text?: string; weight: number }>,
    limit: number,
  ): Promise<AssetAggregate[]> {
    const ranked = await this.lexical.similarIds(em, seeds, limit);
    const aggregates = await this.aggregates(em, ranked);
    return ranked.filter((id) => aggregates.has(id)).map((id) => aggregates.get(id)!);
  }

  /** The aggregates of the live assets among `ids`, by id (the assets module reads them). */
  async aggregates(em: EntityManager, ids: string[]): Promise<Map<string, AssetAggregate>> {
    if (ids.length === 0) return new Map();
    return new Map((await this.reader.liveAggregates(em, ids)).map((a) => [a.asset.id, a]));
  }
}

const round = (n: number): number => Math.round(n * 1e6) / 1e6;

/** The fields of an asset where the query's words, substrings or corrections appear. */
function matchedFields(aggregate: AssetAggregate, evidence: Evidence): SearchedMatch[] {
  const fields: Array<[SearchedMatch, string]> = [
    ['TITLE', aggregate.asset.name ?? ''],
    ['ANNOTATION', aggregate.annotations.map((a) => a.text).join('\n')],
    ['TAGS', aggregate.tags.map((t) => t.text).join('\n')],
    ['WEBSITES', aggregate.websites.map((w) => `${w.url} ${w.name}`).join('\n')],
    ['CONTENT', aggregate.formats.map((f) => f.raw).join('\n')],
  ];
  const out: SearchedMatch[] = [];
  for (const [field, raw] of fields) {
    const text = raw.slice(0, EVIDENCE_CHARS);
    if (!text) continue;
    const lower = text.toLowerCase();
    const terms = new Set(indexText(text).split(' '));
    const hit =
      evidence.words.some((w) => terms.has(w.whole) || (w.parts.length > 0 && w.parts.every((p) => terms.has(p)))) ||
      evidence.needles.some((n) => n.length > 0 && lower.includes(n)) ||
      evidence.corrections.some((c) => terms.has(c));
    if (hit) out.push(field);
  }
  return out;
}
