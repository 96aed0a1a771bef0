/**
 * Duplicate detection for copied snippets. Two texts are exact duplicates when they are equal
 * after normalisation (lines trimmed, so indentation and trailing spaces do not count; runs of
 * whitespace collapsed; blank lines dropped; line endings unified). Near duplicates are scored
 * by token-set and token-bigram Jaccard similarity of the normalised texts.
 */

/** Candidates at or above this similarity are offered for reuse. */
export const REUSE_THRESHOLD = 0.8;
/** Candidates at or above this similarity are listed in Suggestion.assets. */
export const RELATED_THRESHOLD = 0.3;

export function normalizeSnippet(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Identifiers, numbers and single punctuation characters, case kept (code is case-sensitive). */
function tokens(normalized: string): string[] {
  return normalized.match(/[\p{L}_$][\p{L}\p{N}_$]*|\p{N}+(?:\.\p{N}+)?|[^\s\p{L}\p{N}_$]/gu) ?? [];
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

const bigrams = (list: string[]): Set<string> => new Set(list.slice(1).map((t, i) => `${list[i]}\u0000${t}`));

/** Prepared form of a text, so one snippet can be compared with many candidates cheaply. */
export interface Fingerprint {
  normalized: string;
  tokens: Set<string>;
  bigrams: Set<string>;
}

export function fingerprint(text: string): Fingerprint {
  const normalized = normalizeSnippet(text);
  const list = tokens(normalized);
  return { normalized, tokens: new Set(list), bigrams: bigrams(list) };
}

/** 1 for exact duplicates (after normalisation), otherwise the mean of token and bigram Jaccard. */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  if (a.normalized === b.normalized) return 1;
  const score = (jaccard(a.tokens, b.tokens) + jaccard(a.bigrams, b.bigrams)) / 2;
  return Math.min(score, 0.999);
}

/**
 * Worth saving: long enough to be more than a word or a path (at least 2 lines or 40
 * non-space characters) and with some code-like structure (punctuation of code).
 */
export function worthSaving(normalized: string): boolean {
  const visible = normalized.replace(/\s/g, '').length;
  const lines = normalized.split('\n').length;
  if (visible < 20) return false;
  if (lines < 2 && visible < 40) return false;
  return /[{}()[\];=<>:]/.test(normalized);
}
