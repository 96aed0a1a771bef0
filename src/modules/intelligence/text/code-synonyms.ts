import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Query expansion from natural-language words to code terms, for the offline question answerer
 * and search: "return the number of elements" should also look for `len` and `count`, "remove an
 * entry" for `del`, `pop` and `delete`.
 *
 * `code-synonyms.json` beside this file is a statistical association table, not a neural model:
 * for each natural-language term (in contentTerms form: lowercase, identifier parts, light stem)
 * it lists up to five code terms with a weight in (0, 1]. It was learned at development time
 * (ml/synonyms, see its README) from 80,072 (docstring, function) pairs extracted
 * from 411 Debian python3-* packages: both sides tokenised with contentTerms, each pair one
 * document; a code term is kept for an NL term when they co-occur significantly more often than
 * chance (log-likelihood ratio), ranked by a few EM iterations of IBM Model 1 and weighted by the
 * added value (P(code|nl) - P(code)) / (1 - P(code)). The packages of the held-out retrieval
 * evaluation set (ml/retrieval) were excluded from training.
 *
 * The table is read lazily on first use (well under 2 MB) and kept in memory; when the file is
 * missing or unreadable the expansion is empty and ranking falls back to the query's own terms.
 */
export const CODE_SYNONYMS_FILE = join(__dirname, 'code-synonyms.json');

export interface ExpandedTerm {
  /** The associated code term (contentTerms form). */
  term: string;
  /** Association strength in (0, 1]. */
  weight: number;
  /** The query term it was reached from. */
  from: string;
}

interface SynonymFile {
  version: number;
  pairs: number;
  packages: number;
  terms: Record<string, Array<[string, number]>>;
}

let table: Map<string, Array<[string, number]>> | undefined;

function load(): Map<string, Array<[string, number]>> {
  if (table) return table;
  table = new Map();
  try {
    const data = JSON.parse(readFileSync(CODE_SYNONYMS_FILE, 'utf8')) as SynonymFile;
    if (data.version !== 1) throw new Error(`unsupported code-synonyms version ${data.version}`);
    for (const [nl, list] of Object.entries(data.terms)) table.set(nl, list);
  } catch (err) {
    new Logger('CodeSynonyms').warn(`query expansion disabled: ${err instanceof Error ? err.message : String(err)}`);
  }
  return table;
}

/**
 * The code terms associated with the given (already contentTerms'd) query terms: up to `max` for
 * each query term, none that is already among the query terms, each once (with its best weight),
 * best first.
 */
export function expandQueryTerms(terms: string[], max = 3): ExpandedTerm[] {
  const synonyms = load();
  const have = new Set(terms);
  const best = new Map<string, ExpandedTerm>();
  for (const from of have) {
    const list = synonyms.get(from);
    if (!list) continue;
    for (const [term, weight] of list.slice(0, max)) {
      if (have.has(term)) continue;
      const seen = best.get(term);
      if (!seen || weight > seen.weight) best.set(term, { term, weight, from });
    }
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}
