import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { AssetReader } from '../assets/asset.reader';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { codeEmbedding } from '../intelligence/text/code-embedding';
import { EmbeddingModel } from '../intelligence/text/embedding-model';
import { ScoredPassage, contentTerms, contentWords, passagesOf } from '../intelligence/text/extractive-answerer';
import { RankedDocument, namedText, rankDocumentPassages } from '../intelligence/text/passage-ranking';
import { fuseRanks, fusedScores } from '../intelligence/text/rank-fusion';
import { FuzzyRanking, LexicalRanking } from './lexical-ranking';
import { ModelVectorIndex } from './model-vector-index';
import { SearchIndex } from './search-index.service';
import { Scope } from './store/search-store';

/** Candidate assets a question gets from the store. */
const CANDIDATES = 20;
/**
 * Candidates before the offline code embedding re-orders them and the best CANDIDATES are kept:
 * the key-term and fuzzy rankings' best, fused with the embedding's nearest assets (dense stage).
 */
const WIDE_CANDIDATES = 50;
/** Content words of a question that the fuzzy ranking looks up. */
const FUZZY_WORDS = 4;
/** Lexical top passages re-ranked by the embedding model (and at most as many of documents no word of the question matched). */
const RERANK = 30;
/** Passages of each document no word of the question matched that are re-ranked by the embedding model. */
const UNRANKED_PASSAGES = 3;

/** A document whose passages are ranked: RankedDocument, and whether the embedding model's vector index found it. */
export interface PassageDocument extends RankedDocument {
  /** Found by the embedding model's vector index (ModelVectorIndex): ranked by its closeness to the question even when no word of it matches. */
  near?: boolean;
}

/** A stored snippet found for a question: its passages' document and what it is. */
export interface RetrievedDocument extends PassageDocument {
  assetId: string;
  /** Found in the store by the question, rather than given by the client. */
  retrieved: true;
  /** Its text starts with its title (a name the user gave), then a blank line. */
  titled: boolean;
  generic?: string;
  specific?: string;
}

/** The store's candidates for a question, best first, each with its prior (1 for the first, falling). */
export interface Retrieved {
  docs: RetrievedDocument[];
  priors: number[];
}

/**
 * A sentence: at least two content words and one of English's function words. It describes what
 * it looks for ("return the path of the config file"), it is not keywords, a name or an
 * identifier's parts ("config path", "get user name").
 */
const FUNCTION_WORDS = new Set(
  'a an the of to from for in into on onto at by with without as and or if is are be it its this that these those when whether which'.split(
    ' ',
  ),
);

export function describes(query: string): boolean {
  return contentWords(query).length >= 2 && query.split(/\s+/).some((w) => FUNCTION_WORDS.has(w.toLowerCase()));
}

/** A scope of every non-pseudo asset (what the dense and model vector indexes hold), with no further condition. */
function isWholeStore(scope: Scope): boolean {
  return !scope.pseudo && !scope.space && !scope.exclude?.length && !scope.anyTags?.length && !scope.filters;
}

/**
 * The one retrieval of the store by meaning: what question answering (relevance, question, the
 * qgpt stream), neural code search, MCP's ask_pieces_ltm and search (for a sentence, and with an
 * embedding model for every query) find and rank with. Its stages, each used by both: the key
 * terms (tf-idf, bm25) and the fuzzy ranking (LexicalRanking), the dense first stage (the assets
 * nearest to the question in the shipped code embedding, DenseIndex), the model vectors' nearest
 * (ModelVectorIndex, with TROVE_EMBEDDING_MODEL), fused by reciprocal rank; then the dense
 * re-order of the pool and the passages ranked (BM25, coverage, priors, the code embedding, or the
 * embedding model's cosine when one is configured).
 */
@Injectable()
export class Retrieval {
  constructor(
    private readonly db: Database,
    private readonly lexical: LexicalRanking,
    private readonly index: SearchIndex,
    private readonly assets: AssetReader,
    private readonly embedding: EmbeddingModel,
    /** Optional: search is also made by hand, without the embedding model's index (none configured). */
    @Optional() private readonly vectors?: ModelVectorIndex,
  ) {}

  /** The store's candidate snippets for a question, as passage documents, best first (none for a question without a content word). */
  async candidates(query: string): Promise<Retrieved> {
    if (contentTerms(query).length === 0) return { docs: [], priors: [] };
    const docs = await this.db.read(async (em) => {
      // Two rankings fused: the question's key terms (bm25), and the fuzzy ranking (words,
      // identifier parts, substrings, typo corrections), so a misspelt identifier finds its snippet.
      const embedding = codeEmbedding();
      const asked = embedding?.question(query);
      const byTerms = await this.keyTerms(em, query, asked ? WIDE_CANDIDATES : CANDIDATES);
      // The fuzzy ranking on the question's content words only: "how", "do", "the" would cost
      // every index list a pass (and a trigram scan) and find nothing a key term does not.
      const lookup = contentWords(query).slice(0, FUZZY_WORDS).join(' ');
      // Substrings (a trigram scan) only for a single word, an identifier looked up alone; no
      // any-word fallback (the key-term ranking above is one).
      const fuzzy = await this.lexical.rank(em, lookup, { pseudo: false }, CANDIDATES, {
        substrings: !lookup.includes(' '),
        partial: false,
      });
      let ids = fuseRanks([byTerms, fuzzy.ranked.map(([id]) => id)], asked ? WIDE_CANDIDATES : CANDIDATES);
      // For a question of several words, the dense first stage over the whole store: code that
      // shares no word with the question, which the lexical rankings cannot find. Not for one word
      // or name looked up (often misspelt): the vectors of other code would crowd out the lexical
      // matches of what it names.
      if (asked && lookup.includes(' '))
        ids = fuseRanks([ids, await this.index.dense.closest(em, asked, WIDE_CANDIDATES)], WIDE_CANDIDATES);
      // With an embedding model configured: the assets nearest to the question in it, fused in the same way.
      const nearest = await this.modelNearest(query, WIDE_CANDIDATES);
      if (nearest.length) ids = fuseRanks([ids, nearest], asked ? WIDE_CANDIDATES : CANDIDATES);
      const near = new Set(nearest);
      const corrections = [...new Set([...fuzzy.corrections.values()].flat())];
      if (ids.length === 0) return [];
      // Only what the passages need: the name and the text of the first format.
      const rows = await this.assets.firstFormatTexts(em, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      if (asked) {
        // The wider pool re-ordered by the dense stage (fused, so neither the words nor the
        // vectors alone decide), then cut to the usual candidates.
        const close = await this.index.dense.order(
          em,
          asked,
          rows.map((row) => ({ id: row.id, name: row.name, text: row.raw })),
        );
        ids = fuseRanks([ids, close], CANDIDATES);
      }
      return ids.flatMap((id): RetrievedDocument[] => {
        const row = byId.get(id);
        // Its content, under its name only when the user gave it (a generated one repeats the first line).
        const named = row && row.name && row.name !== row.generated_name ? row.name : null;
        return row
          ? [
              {
                text: namedText(named, row.raw),
                titled: named !== null,
                assetId: id,
                retrieved: true,
                title: row.name ?? undefined,
                generic: row.generic,
                specific: row.specific,
                ...(corrections.length ? { corrections } : {}),
                ...(near.has(id) ? { near: true } : {}),
              },
            ]
          : [];
      });
    });
    return { docs, priors: docs.map((_, i) => 1 - i / Math.max(1, docs.length)) };
  }

  /**
   * Every passage of the documents, best first: BM25 over the passages plus query coverage
   * and the documents' priors, half and half with the passage's similarity to the question in
   * Trove's shipped code embedding (code-embedding.ts). With an embedding model configured
   * (TROVE_EMBEDDING_MODEL) the model's vectors take the shipped embedding's place: the
   * lexical top passages are embedded with the query and re-ranked by half lexical score, half
   * cosine similarity. `lenient`: the embedding model failing leaves the lexical ranking (rather
   * than failing with the provider's error).
   */
  async passages(
    query: string,
    docs: PassageDocument[],
    priors: number[],
    options: { lenient?: boolean } = {},
  ): Promise<ScoredPassage[]> {
    const model = this.embedding.model !== null;
    // Offline, the shipped code embedding weighs in: how close each passage is to the question.
    const embedding = model ? null : codeEmbedding();
    const asked = embedding?.question(query);
    const ranked = rankDocumentPassages(query, docs, priors, asked && embedding ? { embedding, asked } : undefined);
    if (!model || docs.length === 0) return ranked;
    // The documents the model vector index found none of whose passages shares a word with the
    // question are re-ranked too, from a lexical score of 0: their closeness to the question is all they have.
    const represented = new Set(ranked.map((p) => p.doc));
    const unranked = docs
      .flatMap((d, i) => (d.near && !represented.has(i) ? passagesOf(d.text, i).slice(0, UNRANKED_PASSAGES) : []))
      .slice(0, RERANK)
      .map((p) => ({ ...p, score: 0 }));
    const top = [...ranked.slice(0, RERANK), ...unranked];
    if (top.length === 0) return ranked;
    let q: number[];
    let vectors: number[][];
    try {
      [q, ...vectors] = await this.embedding.embed([query, ...top.map((p) => p.text)]);
    } catch (error) {
      // The provider's error is the request's (relevance answers its status), unless the caller
      // would rather have the lexical ranking (ask_pieces_ltm: an agent's recall goes on without the model).
      if (options.lenient) return ranked;
      throw error;
    }
    return top
      .map((p, i) => ({
        ...p,
        score: Math.round((0.5 * p.score + 0.5 * Math.max(0, cosine(q, vectors[i]))) * 1e4) / 1e4,
      }))
      .filter((p) => p.score > 0)
      .map((p, i) => ({ p, i }))
      .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
      .map(({ p }) => p);
  }

  /**
   * Search's first stage beyond its fuzzy ranking (SearchEngine.search): for a sentence, its key
   * terms and, over the whole store, the dense first stage; with an embedding model, over the
   * whole store, the model vectors' nearest; fused by reciprocal rank. `kinds` gains how each new
   * id was found ('terms', 'semantic'). `asked`: the sentence's vector, for `searchOrder`.
   */
  async searchCandidates(
    em: EntityManager,
    query: string,
    fuzzy: FuzzyRanking,
    lexical: Array<[string, number]>,
    scope: Scope,
    limit: number,
  ): Promise<{ ranked: Array<[string, number]>; asked?: Float32Array }> {
    const { kinds } = fuzzy;
    const sentence = describes(query);
    // A sentence's vector in the offline code embedding (computed once: the dense stage and the re-ordering read it).
    const asked = sentence ? codeEmbedding()?.question(query) : undefined;
    let ranked = lexical;
    if (sentence) {
      // A sentence's key terms (as question answering takes its candidates) find what the fuzzy
      // ranking's all-words and any-word lists miss.
      const byTerms = await this.keyTerms(em, query, limit, scope);
      for (const id of byTerms) if (!kinds.has(id)) kinds.set(id, new Set(['terms']));
      ranked = fusedScores([fuzzy.ranked.map(([id]) => id), byTerms]).slice(0, limit);
      // And, over the whole store (no filter, tag or space), the dense first stage: code that does
      // what it says in other words.
      if (asked && isWholeStore(scope)) {
        const close = await this.index.dense.closest(em, asked, limit);
        for (const id of close) if (!kinds.has(id)) kinds.set(id, new Set(['semantic']));
        ranked = fusedScores([fuzzy.ranked.map(([id]) => id), byTerms, close]).slice(0, limit);
      }
    }
    // With an embedding model configured, over the whole store: the nearest assets in the model,
    // so that a snippet sharing no word with the query is found.
    if (isWholeStore(scope)) {
      const near = await this.modelNearest(query, limit);
      if (near.length) {
        for (const id of near) if (!kinds.has(id)) kinds.set(id, new Set(['semantic']));
        ranked = fusedScores([ranked.map(([id]) => id), near]).slice(0, limit);
      }
    }
    return { ranked, asked };
  }

  /**
   * A sentence's results re-ordered as question answering orders its candidates: the dense
   * re-order (the ranking fused with each result's closeness to the sentence in the code
   * embedding; ties to the embedding's order), then by each result's best passage
   * (`rankDocumentPassages`, the fused place as a prior), scored by that passage (0..1); a result
   * without a scored passage keeps its place after them, scored below them.
   */
  async searchOrder(
    em: EntityManager,
    query: string,
    asked: Float32Array,
    ids: string[],
    aggregates: Map<string, AssetAggregate>,
    corrections: string[],
  ): Promise<Array<[string, number]>> {
    const docs = ids.flatMap((id) => {
      const aggregate = aggregates.get(id);
      return aggregate ? [{ id, name: aggregate.asset.name ?? null, text: aggregate.formats[0]?.raw ?? '' }] : [];
    });
    const close = await this.index.dense.order(em, asked, docs);
    const position = new Map(close.map((id, i) => [id, i]));
    const at = (id: string) => position.get(id) ?? close.length;
    const fused = fusedScores([ids, close]).sort((a, b) => b[1] - a[1] || at(a[0]) - at(b[0]));
    return byPassages(query, asked, fused, aggregates, corrections);
  }

  /**
   * The memories nearest to the question in the embedding model, over all of them (whatever words
   * they share with it), nearest first, each with its cosine; none without a model.
   */
  async nearestMemories(query: string, limit: number): Promise<Array<{ id: string; score: number }>> {
    return this.vectors ? this.vectors.nearest('memory', query, limit) : [];
  }

  /** The key-term ranking of a question (tf-idf over the index, bm25), among the assets of `scope`. */
  private keyTerms(em: EntityManager, query: string, limit: number, scope?: Scope): Promise<string[]> {
    return this.lexical.similarIds(em, [{ text: query, weight: 1 }], limit, scope);
  }

  /** The assets nearest to the query in the embedding model, nearest first; none without one. */
  private async modelNearest(query: string, limit: number): Promise<string[]> {
    if (!this.vectors?.model) return [];
    return (await this.vectors.nearest('asset', query, limit)).map((hit) => hit.id);
  }
}

/** The results in the order of their best passage (see Retrieval.searchOrder). */
function byPassages(
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

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
