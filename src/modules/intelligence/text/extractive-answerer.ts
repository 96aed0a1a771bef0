import { definitionsOf } from './code-outline';
import { expandQueryTerms } from './code-synonyms';
import { allowedEdits, editDistance, identifierParts, isVocabularyTerm, words } from './terms';
import { remembered } from './remembered';
import { splitRun } from './word-split';

/**
 * The offline question answerer: no language model, no generation. It cuts documents into
 * passages (paragraphs of prose, blocks of code), scores every passage against the question
 * with BM25 over the passages (identifier parts and light stemming included) and a coverage
 * term (how much of the question's weight the passage contains) and a name term (how well the
 * question names the document: its title, the identifiers its code defines), and returns the best
 * passages as they are written. Deterministic: same input, same output.
 */

const STOP = new Set(
  (
    'a an and are as at be but by can could did do does doing for from had has have how i if in into is it its me my ' +
    'no not of on or our please show so tell than that the their them then there these they this those to was we were ' +
    'what when where which while who whom why will with would you your about explain give get use using used work works ' +
    'should shall may might must just also any some all more most other such only own same too very one way ways'
  ).split(' '),
);

/** The words of a text that are not stop words, as written (identifiers whole), in order, once each. */
export function contentWords(text: string): string[] {
  const seen = new Set<string>();
  return words(text).filter((word) => {
    const lower = word.toLowerCase();
    if (lower.length < 2 || STOP.has(lower) || /^\d+$/.test(lower) || seen.has(lower)) return false;
    seen.add(lower);
    return true;
  });
}

/** Lowercase, stemmed content terms of a text (identifier parts included). */
export function contentTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) for (const term of wordTerms(word)) out.push(term);
  return out;
}

/** A word's terms, remembered for up to 20,000 distinct words (see remembered). */
const wordTerms = remembered(20_000, (word: string): readonly string[] => {
  const out: string[] = [];
  for (const term of [word.toLowerCase(), ...identifierParts(word)]) {
    if (term.length < 2 || STOP.has(term) || /^\d+$/.test(term)) continue;
    out.push(stem(term));
  }
  return out;
});

/** A light suffix stemmer: enough for "connections" ~ "connection" ~ "connecting". */
export function stem(term: string): string {
  if (term.length <= 4) return term;
  for (const [suffix, keep] of [
    ['ies', 'y'],
    ['sses', 'ss'],
    ['ing', ''],
    ['edly', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (term.endsWith(suffix) && term.length - suffix.length >= 3 && !term.endsWith('ss'))
      return term.slice(0, -suffix.length) + keep;
  }
  return term;
}

export interface Passage {
  /** Index of the document it comes from. */
  doc: number;
  text: string;
}

const PASSAGE_CHARS = 700;
const MIN_PASSAGE_CHARS = 120;

/** Paragraphs (blank-line separated) merged while short, split by lines while long. */
export function passagesOf(text: string, doc = 0): Passage[] {
  const blocks = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((b) => b.replace(/\s+$/, ''))
    .filter((b) => b.trim());
  const out: Passage[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) out.push({ doc, text: current.trim() });
    current = '';
  };
  for (const block of blocks) {
    if (block.length > PASSAGE_CHARS) {
      flush();
      let piece = '';
      for (const line of block.split('\n')) {
        if (piece && piece.length + line.length + 1 > PASSAGE_CHARS) {
          out.push({ doc, text: piece.trim() });
          piece = '';
        }
        piece += (piece ? '\n' : '') + line;
      }
      if (piece.trim()) current = piece;
      continue;
    }
    if (current && current.length + block.length + 2 > PASSAGE_CHARS) flush();
    current += (current ? '\n\n' : '') + block;
    if (current.length >= MIN_PASSAGE_CHARS) flush();
  }
  flush();
  return out.filter((p) => p.text.length > 0);
}

export interface ScoredPassage extends Passage {
  /** 0..1: how well the passage answers the query. */
  score: number;
}

const K1 = 1.2;
/** Share of an associated code term's BM25 weight (code-synonyms.ts) relative to a term of the question. */
const EXPANSION_WEIGHT = 0.5;
const B = 0.75;

/**
 * Scores passages against a query. `priors` (per document, 0..1) add what an earlier stage
 * (the search index) already knew; `names` (per document, optional) are the documents' titles,
 * which name them as the identifiers their code defines do: a query that names a document
 * (`length`, or `lenght` corrected) ranks it above bodies that merely use the word. Returns passages with a score > 0, best first; ties keep
 * the input order.
 */
export function rankPassages(
  query: string,
  passages: Passage[],
  priors: number[] = [],
  names: Array<string | undefined> = [],
  semantic?: { similarity: (terms: string[], doc: number) => number | null; weight: number },
): ScoredPassage[] {
  const asked = [...new Set(contentTerms(query))];
  if (asked.length === 0 || passages.length === 0) return [];
  const termLists = passages.map((p) => contentTerms(p.text));
  const df = new Map<string, number>();
  for (const terms of termLists) for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  const queryTerms = withCorrections(asked, df);
  const n = passages.length;
  const avg = termLists.reduce((s, t) => s + t.length, 0) / n || 1;
  const expansions = expandQueryTerms(queryTerms).filter((e) => df.has(e.term));
  const idfOf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const idf = new Map([...queryTerms, ...expansions.map((e) => e.term)].map((t) => [t, idfOf(t)]));
  const totalIdf = queryTerms.reduce((s, t) => s + idf.get(t)!, 0) || 1;

  const raw = termLists.map((terms) => {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    let bm25 = 0;
    let covered = 0;
    const termScore = (t: string, f: number) =>
      (idf.get(t)! * f * (K1 + 1)) / (f + K1 * (1 - B + (B * terms.length) / avg));
    for (const t of queryTerms) {
      const f = tf.get(t) ?? 0;
      if (f === 0) continue;
      covered += idf.get(t)!;
      bm25 += termScore(t, f);
    }
    // Code terms the question's words are associated with (`number` -> `len`, `count`): they add
    // to BM25 at a fraction of their weight, never to the coverage of what was asked.
    for (const e of expansions) {
      const f = tf.get(e.term) ?? 0;
      if (f > 0) bm25 += EXPANSION_WEIGHT * e.weight * termScore(e.term, f);
    }
    return { bm25, coverage: covered / totalIdf };
  });
  const maxBm25 = Math.max(...raw.map((r) => r.bm25)) || 1;
  // How well the query names each document (its name, the identifiers its code defines); only
  // for documents with a matching passage, or a joined-word term (`valuestodict`) one of whose
  // words is asked: its name may hold the question's words when none of its passages does.
  const queried = new Set(queryTerms);
  const ofDoc = new Map<number, number[]>(); // a document's passages (indexes), in order
  passages.forEach((p, i) => {
    if (!ofDoc.has(p.doc)) ofDoc.set(p.doc, []);
    ofDoc.get(p.doc)!.push(i);
  });
  const named = new Map<number, number>();
  const nameMatchOf = (doc: number): number => {
    if (!named.has(doc)) {
      const text = ofDoc
        .get(doc)!
        .map((i) => passages[i].text)
        .join('\n\n');
      named.set(doc, nameMatch(namesOf(names[doc], text), queried, idf, totalIdf));
    }
    return named.get(doc)!;
  };
  const joinedAsked = new Map<number, boolean>();
  const asksJoined = (doc: number): boolean => {
    if (!joinedAsked.has(doc))
      joinedAsked.set(
        doc,
        ofDoc.get(doc)!.some((i) => termLists[i].some((t) => splitRun(t).some((part) => queried.has(stem(part))))),
      );
    return joinedAsked.get(doc)!;
  };
  return passages
    .map((p, i) => {
      const { bm25, coverage } = raw[i];
      // With an embedding, a passage that shares no word with the question can still be close to it.
      // A document the embedding is not for (null: prose) is ranked by its words alone.
      const near = semantic ? semantic.similarity(termLists[i], p.doc) : null;
      const close = semantic && near !== null ? semantic.weight * Math.max(0, near) : 0;
      const name = bm25 > 0 || asksJoined(p.doc) ? nameMatchOf(p.doc) : 0;
      if (bm25 === 0 && name === 0) return { ...p, score: Math.round(close * 1e4) / 1e4 };
      const prior = priors[p.doc] ?? 0;
      const lexical = W_COVERAGE * coverage + W_BM25 * (bm25 / maxBm25) + W_PRIOR * prior + NAME_WEIGHT * name;
      const score = semantic && near !== null ? (1 - semantic.weight) * lexical + close : lexical;
      return { ...p, score: Math.round(score * 1e4) / 1e4 };
    })
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.score > 0)
    .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
    .map(({ p }) => p);
}

/**
 * Score weights: query coverage, BM25 (relative to the best passage), the document's prior, and
 * how well the query names the document (`nameMatch`); they sum to 1. Search weighs an asset's
 * name 10x its content; here the name is half the score, tuned on the dev set
 * (eval/data/dev-nl-code-pairs.jsonl: 0.2 .. 0.8 tried; 0.5 is best for both questions and typo'd names).
 */
const NAME_WEIGHT = 0.5;
const W_COVERAGE = 0.55 * (1 - NAME_WEIGHT);
const W_BM25 = 0.35 * (1 - NAME_WEIGHT);
const W_PRIOR = 0.1 * (1 - NAME_WEIGHT);

/**
 * The names a document goes by, each as its distinct content terms: every identifier its code
 * defines (functions, classes, ...: `getUserName` -> getusername, user, name), and its title as
 * one name (a snippet's name: "Redis cache helper", or the one Trove gave it).
 */
function namesOf(title: string | undefined, text: string): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const definition of definitionsOf(text))
    for (const identifier of words(definition.name)) {
      const key = identifier.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const terms = [...new Set(contentTerms(identifier).flatMap(withParts))];
      if (terms.length) out.push(terms);
    }
  const titled = title ? [...new Set(contentTerms(title))] : [];
  if (titled.length) out.push(titled);
  return out;
}

/** A term and, when it is a run of joined words (`valuestodict`), their stems. */
function withParts(term: string): string[] {
  return [term, ...splitRun(term).flatMap((part) => (STOP.has(part) ? [] : [stem(part)]))];
}

/**
 * How well the query (its corrected terms) names a document, 0..1: for the best of its names,
 * the share of the query's idf weight the name holds times the share of the name's terms the
 * query holds. A function named exactly as asked scores 1; `remove` asked of `remove_item`
 * scores 1/3 (of its terms remove_item, remove, item, one is asked), of a function that only
 * calls `remove`, 0.
 */
function nameMatch(names: string[][], asked: Set<string>, idf: Map<string, number>, totalIdf: number): number {
  let best = 0;
  for (const terms of names) {
    let held = 0;
    let weight = 0;
    for (const t of terms)
      if (asked.has(t)) {
        held += 1;
        weight += idf.get(t) ?? 0;
      }
    if (held) best = Math.max(best, (weight / totalIdf) * (held / terms.length));
  }
  return Math.min(1, best);
}

/** Corrections tried per misspelt query term. */
const PASSAGE_CORRECTIONS = 2;

/**
 * The query's terms, each one no passage contains replaced by the passages' terms within the
 * edit distance search allows (the same rule: `allowedEdits`, Damerau-Levenshtein), closest and
 * most frequent first: `debounse` finds `debounce`, `getUserNmae` finds `getusername` and `name`.
 */
function withCorrections(terms: string[], df: Map<string, number>): string[] {
  const out = new Set<string>();
  let vocabulary: string[] | null = null;
  for (const term of terms) {
    const max = allowedEdits(term.length);
    if (df.has(term) || max === 0 || !isVocabularyTerm(term)) {
      out.add(term);
      continue;
    }
    vocabulary ??= [...df.keys()].filter(isVocabularyTerm);
    const near = vocabulary
      .map((c) => ({ c, d: Math.abs(c.length - term.length) > max ? max + 1 : editDistance(term, c, max) }))
      .filter((x) => x.d <= max)
      .sort((a, b) => a.d - b.d || df.get(b.c)! - df.get(a.c)! || a.c.localeCompare(b.c))
      .slice(0, PASSAGE_CORRECTIONS);
    if (near.length === 0) out.add(term);
    for (const { c } of near) out.add(c);
  }
  return [...out];
}

/** The best `n` passages, at most `perDoc` from one document. */
export function bestPassages(ranked: ScoredPassage[], n: number, perDoc = 2): ScoredPassage[] {
  const taken = new Map<number, number>();
  const out: ScoredPassage[] = [];
  for (const p of ranked) {
    if (out.length >= n) break;
    if ((taken.get(p.doc) ?? 0) >= perDoc) continue;
    taken.set(p.doc, (taken.get(p.doc) ?? 0) + 1);
    out.push(p);
  }
  return out;
}

/**
 * A follow-up made standalone without a model: when the follow-up leans on what was said
 * before (pronouns, "that", very few content words), the main terms of the latest user turn
 * are appended, so relevance finds the same material again.
 */
export function standaloneQuery(followUp: string, history: Array<{ role: string; text: string }>): string {
  const query = followUp.trim();
  const own = new Set(contentTerms(query));
  const leans =
    /\b(it|its|this|that|these|those|they|them|there|he|she|above|previous|same|one)\b/i.test(query) || own.size < 3;
  if (!leans) return query;
  const previous = [...history].reverse().filter((m) => m.role !== 'ASSISTANT' && m.text.trim());
  const source = previous[0]?.text ?? [...history].reverse().find((m) => m.text.trim())?.text ?? '';
  if (!source) return query;
  const seen = new Set<string>();
  const context: string[] = [];
  for (const word of words(source)) {
    const terms = contentTerms(word);
    if (terms.length === 0 || terms.every((t) => own.has(t))) continue;
    const key = word.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    context.push(word);
    if (context.length >= 8) break;
  }
  return context.length ? `${query} (context: ${context.join(' ')})` : query;
}

/** Feature-hashed bag of stemmed terms, L2-normalised: a lexical vector, not a neural embedding. */
export function hashedVector(text: string, dimensions = 256): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const term of contentTerms(text)) {
    let h = 2166136261;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
    const index = (h >>> 0) % dimensions;
    vector[index] += (h & 0x80000000) !== 0 ? -1 : 1;
  }
  const norm = Math.sqrt(vector.reduce((s, v) => s + v * v, 0)) || 1;
  return vector.map((v) => Math.round((v / norm) * 1e6) / 1e6);
}
