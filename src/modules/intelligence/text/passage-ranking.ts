import { CodeEmbedding, similarity } from './code-embedding';
import { ScoredPassage, passagesOf, rankPassages } from './extractive-answerer';

/**
 * Share of a passage's score that is its offline embedding similarity to the question: tuned on the
 * retrieval dev set (0.3 / 0.5 / 0.7; eval/README.md), never on the held-out set.
 */
export const SEMANTIC_WEIGHT = 0.5;

/** A document whose passages are ranked: its text, what it is called, the store's spellings of query words. */
export interface RankedDocument {
  text: string;
  title?: string;
  /** The store's own spelling of query words it did not know (search's typo corrections). */
  corrections?: string[];
  /** Prose (an agent's memory, a conversation): ranked by its words alone, not by the code embedding. */
  prose?: boolean;
}

/** The text a stored snippet is ranked by: its name (when it has one) over its text. */
export function namedText(name: string | null | undefined, text: string | undefined): string {
  return [name ?? '', text ?? ''].filter(Boolean).join('\n\n');
}

/**
 * Every passage of the documents, best first (`rankPassages`: BM25 over the passages, the query's
 * coverage, how well it names each document (its title), the documents' priors), with the query's
 * corrected words looked for as the store spells them; with `closeness` (the query's vector in
 * Trove's shipped code embedding), each passage's score is half its closeness to the question.
 * What relevance and search (for a sentence) rank documents by.
 */
export function rankDocumentPassages(
  query: string,
  docs: RankedDocument[],
  priors: number[],
  closeness?: { embedding: CodeEmbedding; asked: Float32Array },
): ScoredPassage[] {
  const passages = docs.flatMap((d, i) => passagesOf(d.text, i));
  const corrections = [...new Set(docs.flatMap((d) => d.corrections ?? []))];
  const lexicalQuery = corrections.length ? `${query} ${corrections.join(' ')}` : query;
  const semantic = closeness && {
    weight: SEMANTIC_WEIGHT,
    similarity: (terms: string[], doc: number) => {
      if (docs[doc].prose) return null;
      const vector = closeness.embedding.codeTerms(terms);
      return vector ? similarity(closeness.asked, vector) : 0;
    },
  };
  return rankPassages(
    lexicalQuery,
    passages,
    priors,
    docs.map((d) => d.title),
    semantic,
  );
}
