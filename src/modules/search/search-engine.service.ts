import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AssetReader } from '../assets/asset.reader';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { ModelVectorIndex } from './model-vector-index';
import { SearchIndex } from './search-index.service';
import { Scope, SearchStore, WordQuery } from './store/search-store';
import { codeEmbedding } from '../intelligence/text/code-embedding';
import { contentWords } from '../intelligence/text/extractive-answerer';
import { namedText, rankDocumentPassages } from '../intelligence/text/passage-ranking';
import { RRF_K, fuseRanks, fusedScores } from '../intelligence/text/rank-fusion';
import {
  QueryWord,
  allowedEdits,
  anchorLength,
  editDistance,
  indexText,
  isKeyTerm,
  isVocabularyTerm,
  queryWords,
} from '../intelligence/text/terms';

/** Results per search, best first (the interface has no paging). */
const RESULT_LIMIT = 20;
/** Fusion weights of the ranked lists. */
const WEIGHTS = { exact: 1, substring: 0.8, fuzzy: 0.6, partial: 0.4 } as const;
/** Corrections tried per misspelt word. */
const CORRECTIONS = 3;
/** Inputs considered by related / recommended, and key terms taken from each. */
const MAX_SEEDS = 20;
const KEY_TERMS = 10;
/**
 * Documents an OR query may match in all (the sum of its terms' document frequencies): its
 * terms are taken rarest first (key terms: best first) while they fit, at least one. SQLite
 * ranks only the newest 600 matches of a query (SqliteSearchStore's window), so an OR with a
 * common word ("the", "return") ranked a few hundred recent assets and missed the rest; rare
 * terms carry the signal, and the passages are re-ranked on every term afterwards.
 */
const OR_DF_BUDGET = 600;
/** Characters of a text checked when naming the field that matched. */
const EVIDENCE_CHARS = 20_000;

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

/** What `SearchEngine.rank` found: ids best first and how each was found. */
export interface FuzzyRanking {
  /** [asset id, fused score], best first. */
  ranked: Array<[string, number]>;
  /** Which lists (exact, substring, fuzzy, partial) found each id. */
  kinds: Map<string, Set<string>>;
  exact: string[];
  /** Query word -> the vocabulary terms it was corrected to. */
  corrections: Map<string, string[]>;
  words: QueryWord[];
  needles: string[];
}

/** What a query matched with, to name the matched field of each result. */
interface Evidence {
  words: QueryWord[];
  needles: string[];
  corrections: string[];
}

/**
 * A query that describes what it looks for in a sentence ("return the path of the config file"),
 * not keywords, a name or an identifier's parts ("config path", "get user name"): at least two
 * content words and one of English's function words.
 */
const FUNCTION_WORDS = new Set(
  'a an the of to from for in into on onto at by with without as and or if is are be it its this that these those when whether which'.split(
    ' ',
  ),
);

/** A scope of every non-pseudo asset (what the dense index holds), with no further condition. */
function isWholeStore(scope: Scope): boolean {
  return !scope.pseudo && !scope.space && !scope.exclude?.length && !scope.anyTags?.length && !scope.filters;
}

function describes(query: string): boolean {
  return contentWords(query).length >= 2 && query.split(/\s+/).some((w) => FUNCTION_WORDS.has(w.toLowerCase()));
}

const group = (word: QueryWord): string[][] => [[word.whole], ...(word.parts.length ? [word.parts] : [])];

/**
 * Fuzzy search over the index: exact words (identifier parts included), substrings (trigrams)
 * and typo corrections against the index's own vocabulary, fused by reciprocal rank.
 */
@Injectable()
export class SearchEngine {
  constructor(
    private readonly index: SearchIndex,
    private readonly reader: AssetReader,
    /** Optional: the engine is also made by hand, without the embedding model's index (none configured). */
    @Optional() private readonly vectors?: ModelVectorIndex,
  ) {}

  /**
   * Ids of the `limit` assets (not pseudo ones) closest to a question's vector in the offline
   * code embedding (CodeEmbedding.question), closest first: whatever words they share with it.
   */
  closestIds(em: EntityManager, question: Float32Array, limit: number): Promise<string[]> {
    return this.index.dense.closest(em, question, limit);
  }

  /** The documents' ids, closest to the question's vector first (DenseIndex.order: stored vectors, read rather than computed). */
  closestOrder(
    em: EntityManager,
    question: Float32Array,
    docs: Array<{ id: string; name: string | null; text: string }>,
  ): Promise<string[]> {
    return this.index.dense.order(em, question, docs);
  }

  /**
   * A described query's results in the order of the lexical ranking fused (reciprocal rank) with
   * the offline code embedding's (similarity of each result's name and text to the query), as
   * relevance orders its candidates: words alone miss code that does what a sentence says in other
   * words. Ties go to the embedding's order. Scores are the fused ones (1: first in both).
   */
  private async closestFused(
    em: EntityManager,
    asked: Float32Array,
    ids: string[],
    aggregates: Map<string, AssetAggregate>,
  ): Promise<Array<[string, number]>> {
    const docs = ids.flatMap((id) => {
      const aggregate = aggregates.get(id);
      return aggregate ? [{ id, name: aggregate.asset.name ?? null, text: aggregate.formats[0]?.raw ?? '' }] : [];
    });
    const close = await this.closestOrder(em, asked, docs);
    const position = new Map(close.map((id, i) => [id, i]));
    const at = (id: string) => position.get(id) ?? close.length;
    return fusedScores([ids, close]).sort((a, b) => b[1] - a[1] || at(a[0]) - at(b[0]));
  }

  /**
   * A sentence's results in the order of their best passage as relevance scores passages
   * (`rankPassages`: BM25 over the results' passages, the question's coverage, how well it names
   * each result, the result's place so far as a prior, and half of it the passage's closeness to
   * the question in the offline code embedding), each scored by that passage (0..1); a result
   * without a scored passage keeps its place after them, scored below them. On the retrieval dev set
   * this took search's R@3 from 66.0 to 70.1 (eval/README.md).
   */
  private byPassages(
    query: string,
    asked: Float32Array,
    ranked: Array<[string, number]>,
    aggregates: Map<string, AssetAggregate>,
    corrections: string[],
  ): Array<[string, number]> {
    const embedding = codeEmbedding();
    if (!embedding) return ranked;
    const present = ranked.filter(([id]) => aggregates.has(id));
    const docs = present.map(([id]) => {
      const { asset, formats } = aggregates.get(id)!;
      return { text: namedText(asset.name, formats[0]?.raw), title: asset.name ?? undefined, corrections };
    });
    const priors = present.map((_, i) => 1 - i / Math.max(1, present.length));
    const best = new Map<number, number>();
    for (const p of rankDocumentPassages(query, docs, priors, { embedding, asked }))
      if (!best.has(p.doc)) best.set(p.doc, p.score);
    // (below the lowest passage score, in their fused order: a result is never scored 0)
    const lowest = Math.min(1, ...best.values());
    return present
      .map(([id, fused], i) => ({ id, i, passage: best.get(i), score: best.get(i) ?? Math.max(1e-3, lowest * fused) }))
      .sort((a, b) => (b.passage ?? -1) - (a.passage ?? -1) || a.i - b.i)
      .map((r): [string, number] => [r.id, r.score]);
  }

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

    const { ranked: fuzzy, kinds, exact, corrections, words, needles } = await this.rank(em, query, scope, limit);
    const best = (Object.values(WEIGHTS) as number[]).reduce((a, b) => a + b, 0) / (RRF_K + 1);
    let lexical = fuzzy.map(([id, score]): [string, number] => [id, score / best]);
    const sentence = describes(query);
    // A sentence's vector in the offline code embedding (computed once: the dense stage and the re-ordering read it).
    const asked = sentence ? codeEmbedding()?.question(query) : undefined;
    if (sentence) {
      // A sentence's key terms (tf-idf, bm25-ranked, as relevance takes its candidates) find what
      // the fuzzy ranking's all-words and any-word lists miss.
      const byTerms = await this.similarIds(em, [{ text: query, weight: 1 }], limit, scope);
      for (const id of byTerms) if (!kinds.has(id)) kinds.set(id, new Set(['terms']));
      lexical = fusedScores([fuzzy.map(([id]) => id), byTerms]).slice(0, limit);
      // And, over the whole store (no filter, tag or space), the assets nearest to the sentence in
      // the offline code embedding: code that does what it says in other words.
      if (asked && isWholeStore(scope)) {
        const close = await this.index.dense.closest(em, asked, limit);
        for (const id of close) if (!kinds.has(id)) kinds.set(id, new Set(['semantic']));
        lexical = fusedScores([fuzzy.map(([id]) => id), byTerms, close]).slice(0, limit);
      }
    }
    // With an embedding model configured, over the whole store: the assets nearest to the query
    // in the model (ModelVectorIndex), fused with the lexical ranking, so that a snippet sharing no
    // word with the query is found.
    if (this.vectors?.model && isWholeStore(scope)) {
      const near = (await this.vectors.nearest('asset', query, limit)).map((hit) => hit.id);
      if (near.length) {
        for (const id of near) if (!kinds.has(id)) kinds.set(id, new Set(['semantic']));
        lexical = fusedScores([lexical.map(([id]) => id), near]).slice(0, limit);
      }
    }
    const ids = lexical.map(([id]) => id);
    const tagCounts = tags
      ? new Map((await this.store.tags(em, tags, { ...scope, space: ids }, ids.length)).map((t) => [t.id, t.count]))
      : null;
    const aggregates = await this.aggregates(em, ids);
    const evidence: Evidence = { words, needles, corrections: [...corrections.values()].flat() };
    const exactSet = new Set(exact);
    const ranked = asked
      ? this.byPassages(
          query,
          asked,
          await this.closestFused(em, asked, ids, aggregates),
          aggregates,
          evidence.corrections,
        )
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
   * The fuzzy ranking behind `search`, ids only (best first, with their fused scores): exact
   * words (identifier parts included), substrings, typo corrections against the index's own
   * vocabulary and, for several words, any of them; fused by reciprocal rank. Question answering
   * takes its candidates from here too, so a typo'd identifier is found the same way by both.
   */
  async rank(
    em: EntityManager,
    query: string,
    scope: Scope,
    limit = RESULT_LIMIT,
    options: { substrings?: boolean; partial?: boolean } = {},
  ): Promise<FuzzyRanking> {
    const words = queryWords(query);
    const needles = words.length ? words.map((w) => w.whole) : [query.toLowerCase()];
    const exactQuery: WordQuery = words.map(group);
    const exact = await this.store.words(em, exactQuery, 'AND', scope, limit);
    // When whole words already fill the page, substrings could only add weaker suggestions. For
    // identifiers (camelCase, snake_case: every word has parts) the trigram match is replaced by
    // cheaper word lists: held whole or by their parts' phrase, the exact list already has the
    // longer identifiers around them (`getUserNameById` holds "get user name"); otherwise the words
    // that start with them (`safe_lo` -> `safe_load`, typed half way). A trigram query over a long
    // identifier's common trigrams was the costliest list of a search at a million assets (47-181 ms).
    const identifiers = words.length > 0 && words.every((w) => w.parts.length > 1);
    let substring: string[] = [];
    if (exact.length < limit && options.substrings !== false) {
      if (!identifiers) substring = await this.store.substrings(em, needles, scope, limit);
      else if (exact.length === 0) substring = await this.store.prefixes(em, needles, scope, limit);
    }

    // Typo tolerance. An exact match means the index has every word (whole or as its parts).
    const corrections = exact.length ? new Map<string, string[]>() : await this.corrections(em, words);
    const fuzzyQuery: WordQuery = words.map((w) => [...group(w), ...(corrections.get(w.whole) ?? []).map((c) => [c])]);
    const fuzzy = corrections.size ? await this.store.words(em, fuzzyQuery, 'AND', scope, limit) : [];
    const partial =
      exact.length === 0 && words.length > 1 && options.partial !== false
        ? await this.store.words(em, await this.withinBudget(em, words, fuzzyQuery), 'OR', scope, limit)
        : [];

    const lists: Array<[keyof typeof WEIGHTS, string[]]> = [
      ['exact', exact],
      ['substring', substring],
      ['fuzzy', fuzzy],
      ['partial', partial],
    ];
    const fused = new Map<string, number>();
    const kinds = new Map<string, Set<string>>();
    for (const [kind, ids] of lists) {
      ids.forEach((id, rank) => {
        fused.set(id, (fused.get(id) ?? 0) + WEIGHTS[kind] / (RRF_K + rank + 1));
        if (!kinds.has(id)) kinds.set(id, new Set());
        kinds.get(id)!.add(kind);
      });
    }
    const ranked = [...fused.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
    return { ranked, kinds, exact, corrections, words, needles };
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
    const ranked = await this.similarIds(em, seeds, limit);
    const aggregates = await this.aggregates(em, ranked);
    return ranked.filter((id) => aggregates.has(id)).map((id) => aggregates.get(id)!);
  }

  /**
   * The ids `similar` would load, best first (live assets are checked by the caller's load),
   * among the assets of `scope` (by default every asset that is not a pseudo one).
   */
  async similarIds(
    em: EntityManager,
    seeds: Array<{ id?: string; text?: string; weight: number }>,
    limit: number,
    scope: Scope = { pseudo: false },
  ): Promise<string[]> {
    const used = seeds.slice(0, MAX_SEEDS);
    const stored = await this.store.documents(
      em,
      used.flatMap((s) => (s.id ? [s.id] : [])),
    );
    const perSeed = used.map((seed) => {
      const doc = seed.id ? stored.get(seed.id) : undefined;
      const text = doc
        ? [
            doc.name,
            doc.name,
            doc.name,
            doc.tags,
            doc.tags,
            doc.annotations,
            doc.content.slice(0, EVIDENCE_CHARS),
          ].join('\n')
        : (seed.text ?? '').slice(0, EVIDENCE_CHARS);
      const counts = new Map<string, number>();
      for (const term of indexText(text).split(' ')) if (isKeyTerm(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
      return {
        indexed: doc !== undefined,
        terms: [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 40),
      };
    });
    // Inputs that are in the index count in its document frequencies; a term only they contain finds nothing else.
    const inInputs = new Map<string, number>();
    for (const seed of perSeed)
      if (seed.indexed) for (const [t] of seed.terms) inInputs.set(t, (inInputs.get(t) ?? 0) + 1);
    const allTerms = [...new Set(perSeed.flatMap((seed) => seed.terms.map(([t]) => t)))];
    if (allTerms.length === 0) return [];
    const [df, total] = await Promise.all([this.store.documentFrequency(em, allTerms), this.store.documentCount(em)]);
    const exclude = used.flatMap((s) => (s.id ? [s.id] : []));
    const rankings: string[][] = [];
    const weights: number[] = [];
    const others = (t: string) => (df.get(t) ?? 0) - (inInputs.get(t) ?? 0);
    for (const [i, { terms }] of perSeed.entries()) {
      const max = Math.max(1, ...terms.map(([, n]) => n));
      let budget = 0;
      const key = terms
        .filter(([t]) => others(t) > 0)
        .map(([term, n]) => ({ term, score: (0.5 + (0.5 * n) / max) * Math.log(1 + total / others(term)) }))
        .sort((a, b) => b.score - a.score || a.term.localeCompare(b.term))
        .filter(({ term }, i) => {
          if (i > 0 && budget + others(term) > OR_DF_BUDGET) return false;
          budget += others(term);
          return true;
        })
        .slice(0, KEY_TERMS);
      if (key.length === 0) continue;
      const ids = await this.store.words(
        em,
        key.map((k) => [[k.term]]),
        'OR',
        { ...scope, exclude: [...(scope.exclude ?? []), ...exclude] },
        limit,
      );
      rankings.push(ids);
      weights.push(used[i].weight);
    }
    return fuseRanks(rankings, limit, weights);
  }

  /** The groups of an OR query that fit OR_DF_BUDGET, rarest word first (at least one). */
  private async withinBudget(em: EntityManager, words: QueryWord[], query: WordQuery): Promise<WordQuery> {
    const df = await this.store.documentFrequency(em, [...new Set(words.flatMap((w) => [w.whole, ...w.parts]))]);
    const frequency = (w: QueryWord) => {
      const whole = df.get(w.whole) ?? 0;
      return whole > 0 || w.parts.length === 0 ? whole : Math.min(...w.parts.map((p) => df.get(p) ?? 0));
    };
    const order = words.map((w, i) => ({ i, n: frequency(w) })).sort((a, b) => a.n - b.n || a.i - b.i);
    const kept: number[] = [];
    let total = 0;
    for (const { i, n } of order) {
      if (kept.length > 0 && total + n > OR_DF_BUDGET) continue;
      kept.push(i);
      total += n;
    }
    return kept.sort((a, b) => a - b).map((i) => query[i]);
  }

  /** Corrections against the index's own vocabulary for the words it has never seen. */
  private async corrections(em: EntityManager, words: QueryWord[]): Promise<Map<string, string[]>> {
    const corrections = new Map<string, string[]>();
    // Only the whole word counts: `fall_commands` has known parts and is still a typo of
    // `all_commands` (this runs only when no asset holds every word, parts included). So only the
    // whole words are looked up: a part is often a common word (`max`), whose count walks its
    // whole posting list (10-30 ms at a million assets).
    const known = await this.store.documentFrequency(em, [...new Set(words.map((w) => w.whole))]);
    for (const word of words) {
      if ((known.get(word.whole) ?? 0) > 0) continue;
      const found = await this.correct(em, word.whole);
      if (found.length) corrections.set(word.whole, found);
    }
    return corrections;
  }

  /** Vocabulary terms within the allowed edit distance, closest and most common first. */
  private async correct(em: EntityManager, term: string): Promise<string[]> {
    const length = [...term].length;
    const max = allowedEdits(length);
    if (max === 0 || !isVocabularyTerm(term)) return [];
    const k = anchorLength(length);
    const near = await this.store.vocabularyNear(em, term.slice(0, k), term.slice(-k), length - max, length + max);
    const scored = near
      .filter((c) => c !== term)
      .map((c) => ({ c, d: editDistance(term, c, max) }))
      .filter((x) => x.d <= max)
      .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
      .slice(0, 12);
    if (scored.length === 0) return [];
    const df = await this.store.documentFrequency(
      em,
      scored.map((x) => x.c),
    );
    return scored
      .filter((x) => (df.get(x.c) ?? 0) > 0)
      .sort((a, b) => a.d - b.d || df.get(b.c)! - df.get(a.c)! || a.c.localeCompare(b.c))
      .slice(0, CORRECTIONS)
      .map((x) => x.c);
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
