import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { remembered } from './remembered';

/**
 * The parts of an identifier written as one lowercase run: `valuestodict` -> values, to, dict;
 * `localzone` -> local, zone; `readlines` -> read, lines. Case and underscores split most
 * identifiers (terms.ts); these have neither, so a question that says "convert values to a dict"
 * shares no word with them. The words are the parts developers join into identifiers, counted in
 * multi-part identifiers of Debian's Python, Perl and C sources (`word-parts.json`, ml/word-parts);
 * a run is split into the most probable sequence of them (a unigram model, each part paying a
 * fixed price so that fewer, longer parts win), and only when it is not a word in its own right:
 * not a counted word, nor an English word (`therefore` is not "the ref ore").
 */

/** The word counts, read on first use (an idle server never needs them). */
interface Words {
  counts: Map<string, number>;
  total: number;
  /** English words that could be cut into counted words, and are not (`therefore`, `servers`). */
  whole: Set<string>;
}
let words: Words | undefined;
function loaded(): Words {
  if (!words) {
    const file = JSON.parse(readFileSync(join(__dirname, 'word-parts.json'), 'utf8')) as {
      counts: Record<string, number>;
      whole: string[];
    };
    const counts = new Map(Object.entries(file.counts));
    words = { counts, total: [...counts.values()].reduce((a, b) => a + b, 0), whole: new Set(file.whole) };
  }
  return words;
}

/** Two-letter words join identifiers in their own places: `is_state` (first), `values_to_dict` (between two words). */
const FIRST_ONLY = new Set(['is']);
const BETWEEN_ONLY = new Set(['to', 'of', 'by']);
function allowed(part: string, start: number, end: number, length: number): boolean {
  if (FIRST_ONLY.has(part)) return start === 0 && end < length;
  if (BETWEEN_ONLY.has(part)) return start > 0 && end < length;
  return true;
}
/** Shortest run worth splitting, and the longest part looked for. */
const MIN_RUN = 5;
const MAX_PART = 16;
/** Each part's price on top of its word cost: a split must beat fewer, longer parts. */
const PART_PRICE = 4;

/** The parts of a lowercase run, or [] when it is a word itself or does not split into known words. */
export function splitRun(run: string): readonly string[] {
  return run.length < MIN_RUN ? NONE : split(run);
}

const NONE: readonly string[] = [];

/** Remembered for up to 20,000 distinct runs (see remembered). */
const split = remembered(20_000, (run: string): readonly string[] => {
  const { counts, total, whole } = loaded();
  if (!/^[a-z]+$/.test(run) || counts.has(run) || whole.has(run)) return NONE;
  const cost = (part: string): number | undefined => {
    const count = counts.get(part);
    return count === undefined ? undefined : -Math.log(count / total) + PART_PRICE;
  };
  const best = new Float64Array(run.length + 1).fill(Infinity);
  const from = new Int32Array(run.length + 1).fill(-1);
  best[0] = 0;
  for (let end = 1; end <= run.length; end++) {
    for (let start = Math.max(0, end - MAX_PART); start < end; start++) {
      if (best[start] === Infinity) continue;
      const part = run.slice(start, end);
      const c = allowed(part, start, end, run.length) ? cost(part) : undefined;
      if (c !== undefined && best[start] + c < best[end]) {
        best[end] = best[start] + c;
        from[end] = start;
      }
    }
  }
  if (best[run.length] === Infinity) return NONE;
  const parts: string[] = [];
  for (let end = run.length; end > 0; end = from[end]) parts.push(run.slice(from[end], end));
  return parts.length >= 2 ? parts.reverse() : NONE;
});
