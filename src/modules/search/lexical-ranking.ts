import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SearchIndex } from './search-index.service';
import { Scope, SearchStore, WordQuery } from './store/search-store';
import { RRF_K, fuseRanks } from '../intelligence/text/rank-fusion';
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
export const RESULT_LIMIT = 20;
/** Fusion weights of the ranked lists. */
export const WEIGHTS = { exact: 1, substring: 0.8, fuzzy: 0.6, partial: 0.4 } as const;
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
/** Characters of a text checked when naming the field that matched (and read of a seed for its key terms). */
export const EVIDENCE_CHARS = 20_000;

/** What `LexicalRanking.rank` found: ids best first and how each was found. */
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

/** The words of a query with their identifier parts, as one AND group each. */
export const group = (word: QueryWord): string[][] => [[word.whole], ...(word.parts.length ? [word.parts] : [])];

/**
 * The two lexical rankings over the search index, inner stages of search and of retrieval
 * (Retrieval): the fuzzy ranking (exact words, substrings, typo corrections, any of the words) and
 * the key terms of given texts or assets (tf-idf, bm25).
 */
@Injectable()
export class LexicalRanking {
  constructor(private readonly index: SearchIndex) {}

  private get store(): SearchStore {
    return this.index.store;
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
}
