/**
 * Tokenisation shared by the search index (indexing and querying) and question answering's
 * passage ranking (the extractive answerer), identical on both dialects: the database
 * only ever sees space-separated lowercase terms we produced, so SQLite FTS5 and
 * PostgreSQL full text agree on what a word is.
 *
 * A word is a run of letters, digits and underscores. Identifiers are kept whole AND split
 * into their parts (camelCase, PascalCase, snake_case, letter/digit boundaries), so
 * `getUserName` is found by `getusername`, by `user` and by the phrase `get user name`.
 * Kebab-case (`my-component`) is already two words.
 */

import { splitRun } from './word-split';

const WORD = /[\p{L}\p{N}_]+/gu;
/** Longer runs are hashes, base64 or minified blobs: not words anyone types. */
export const MAX_TERM = 48;
/** Only the first part of a very long text is indexed (PostgreSQL caps a tsvector at 1 MB). */
export const MAX_INDEXED_CHARS = 200_000;

const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
/** Lowercase letters only, or digits only: most words, and none has a part (the split is costly). */
const UNSPLIT = /^(?:\p{Ll}+|\p{N}+)$/u;

/** The lowercase parts of an identifier, or [] when it has none beyond itself. */
export function identifierParts(token: string): string[] {
  if (UNSPLIT.test(token)) return [];
  const parts = token
    .split('_')
    .flatMap((piece) => piece.split(CAMEL))
    .filter((part) => part.length > 0)
    .map((part) => part.toLowerCase());
  const whole = token.toLowerCase();
  if (parts.length === 0) return [];
  if (parts.length === 1 && parts[0] === whole) return [];
  return parts;
}

/** Raw words of a text, in order (case preserved). */
export function words(text: string): string[] {
  return (text.slice(0, MAX_INDEXED_CHARS).match(WORD) ?? []).filter((w) => w.length <= MAX_TERM);
}

/** The text as the index sees it: every word lowercased, followed by its identifier parts. */
export function indexText(text: string): string {
  const out: string[] = [];
  for (const word of words(text)) {
    const whole = word.toLowerCase();
    const parts = identifierParts(word);
    out.push(whole, ...parts);
    // Joined words (`valuestodict`, `get_localzone`) are found by their parts too.
    for (const piece of parts.length ? parts : [whole]) out.push(...splitRun(piece));
  }
  return out.join(' ');
}

/** One word of a query: the whole (lowercased) word and, for identifiers, its parts. */
export interface QueryWord {
  /** As typed. */
  raw: string;
  whole: string;
  parts: string[];
}

export function queryWords(query: string): QueryWord[] {
  const seen = new Set<string>();
  const out: QueryWord[] = [];
  for (const raw of words(query)) {
    const whole = raw.toLowerCase();
    if (seen.has(whole)) continue;
    seen.add(whole);
    out.push({ raw, whole, parts: identifierParts(raw) });
  }
  return out.slice(0, 16);
}

/** Terms worth correcting or weighting: starts with a letter, 3..32 characters. */
export function isVocabularyTerm(term: string): boolean {
  return /^[\p{Ll}][\p{Ll}\p{N}_]{2,31}$/u.test(term);
}

/** Distinct vocabulary terms of an index text. */
export function vocabulary(indexed: string): string[] {
  const set = new Set<string>();
  for (const term of indexed.split(' ')) if (isVocabularyTerm(term)) set.add(term);
  return [...set];
}

export function reverse(term: string): string {
  return [...term].reverse().join('');
}

/**
 * Optimal-string-alignment Damerau-Levenshtein distance (substitution, insertion, deletion,
 * adjacent transposition), giving up as soon as it must exceed `max` (returns max + 1).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  let prevPrev = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prevPrev[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, cur] = [prev, cur, prevPrev];
  }
  return prev[m] <= max ? prev[m] : max + 1;
}

/** How many edits a query word of this length may be away from a correction. */
export function allowedEdits(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/**
 * Where a correction must agree with the misspelt word: its first or its last `k`
 * characters. One edit (even a transposition) touches at most two adjacent positions, so
 * with k + k <= length - 2 it cannot reach both ends; for two edits this still finds every
 * correction whose edits fall in the same half (the usual case for a slip of the finger).
 */
export function anchorLength(length: number): number {
  return Math.max(1, Math.floor((length - 2) / 2));
}

const STOPWORDS = new Set(
  (
    'the and for with that this from are was were been have has had not but you your our their they them its into ' +
    'will would can could should there here then than when what which who whom how why all any each some such only ' +
    'also just more most other very out about over under again once both few own same too off use using used get set ' +
    'new return const let var function def class public private static void int string true false null none self'
  ).split(' '),
);

/** Terms that say something about a text (for related / recommended): no stopwords or numbers. */
export function isKeyTerm(term: string): boolean {
  return isVocabularyTerm(term) && !STOPWORDS.has(term) && !/^\p{N}/u.test(term);
}
