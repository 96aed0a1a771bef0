/**
 * What a snippet that defines nothing is about: a name that names its key entity (the tables a
 * query reads, the image a container runs, the Kubernetes object, the package, the host, the
 * selectors, the heading), a one-sentence description that says more than its length and
 * language, and tags from the same understanding. Each family lives in its own file and reads
 * the snippet with a real parser where one exists on npm.
 */
export interface SnippetKind {
  /** Undefined: the snippet is understood, but its own first line names it better (a script's lead comment). */
  name?: string;
  description: string;
  tags: string[];
}

/** Names are at most this long (as those of definitions: code-terms.ts). */
const MAX_NAME = 80;
const MAX_DESCRIPTION = 200;

/** `a`, `a and b`, `a, b and c`, `a, b, c and 2 more`. */
export function listOf(items: readonly string[], shown = 3): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? '';
  if (unique.length <= shown) return `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
  return `${unique.slice(0, shown).join(', ')} and ${unique.length - shown} more`;
}

/** The first `n` distinct items joined with `, ` (and `, …` when there were more). */
export function shortList(items: readonly string[], n = 3): string {
  const unique = [...new Set(items)];
  return unique.length <= n ? unique.join(', ') : `${unique.slice(0, n).join(', ')}, …`;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/** Tags as the rest of Trove writes them: lower-case words, distinct, without punctuation at the ends. */
function tagsOf(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw
      .toLowerCase()
      .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
      .slice(0, 40);
    if (tag.length >= 2 && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** A sentence cut to `max` characters at a word, without the punctuation the cut leaves at its end. */
function sentenceOf(text: string, max: number): string {
  let sentence = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  if (sentence.length > max) {
    const cut = sentence.lastIndexOf(' ', max);
    sentence = sentence.slice(0, cut > max / 2 ? cut : max).replace(/[\s,;:(…-]+$/, '');
    // (a parenthesis the cut opened and did not close)
    if ((sentence.match(/\(/g)?.length ?? 0) > (sentence.match(/\)/g)?.length ?? 0))
      sentence = sentence.slice(0, sentence.lastIndexOf('(')).replace(/[\s,;:]+$/, '');
  }
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** A kind with its name clipped and its description one sentence ending in a full stop. */
export function kind(name: string | undefined, description: string, tags: readonly string[]): SnippetKind {
  return {
    name: name === undefined ? undefined : clip(name, MAX_NAME),
    description: `${sentenceOf(description, MAX_DESCRIPTION - 1)}.`,
    tags: tagsOf(tags),
  };
}

/** A value shown inside a name or a description: one line, at most `max` characters. */
export function shown(value: string, max = 40): string {
  return clip(value, max);
}

/** A parsed JSON object or YAML mapping. */
export type Doc = Record<string, unknown>;

export function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function keysOf(value: unknown): string[] {
  return isDoc(value) ? Object.keys(value) : [];
}

/** A string or a number as text; anything else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** A JSON or YAML document of no known kind: named by its `name` or `title` and its top-level keys. */
export function keyedDocument(doc: Doc, format: 'JSON' | 'YAML', noun: string): SnippetKind | undefined {
  const keys = Object.keys(doc);
  if (!keys.length) return undefined;
  const title = str(doc.name) ?? str(doc.title);
  return kind(
    title
      ? `${shown(title)}: ${shortList(
          keys.filter((k) => k !== 'name' && k !== 'title'),
          3,
        )}`
      : `${format}: ${shortList(keys, 4)}`,
    `${noun}${title ? ` "${shown(title)}"` : ''} with keys ${listOf(keys, 4)}`,
    [format.toLowerCase(), ...keys.slice(0, 3)],
  );
}
