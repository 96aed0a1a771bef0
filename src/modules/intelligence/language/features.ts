/**
 * The features of Trove's language classifier: one definition, used by the trainer
 * (ml/language/featurize.js dumps them for the training script) and by the detector at run
 * time, so the model always sees exactly what it was trained on.
 *
 * A text becomes a sparse vector of hashed features (FNV-1a into 2^bits buckets):
 *  - tokens: identifiers and keywords as written (case matters: `None`, `nil`, `NULL`), numbers
 *    as one token, and each run of punctuation as one token (`=>`, `::`, `->`, `:=`, `});`);
 *  - token bigrams;
 *  - the first and the last token of each line (`def`, `{`, `;`, `:`, `end`) and the line's
 *    leading punctuation (comment markers: `#`, `//`, `--`, `%`, `;;`);
 *  - character trigrams of the text with runs of spaces collapsed.
 * Each group is weighted, counts are damped (log(1 + n)), and the vector is L2-normalised.
 * Changing anything here changes the model's input: bump FEATURE_VERSION and retrain.
 */

export const FEATURE_VERSION = 1;

/** The detector and the trainer read at most this much of a text. */
export const FEATURE_MAX_CHARS = 2_000;

const TOKEN = /[A-Za-z_$@][A-Za-z0-9_$]*|\d[\d_]*(?:\.\d+)?|[^\sA-Za-z0-9_$@]+/g;

/** Group prefixes (one character each, so hashes of different groups never collide by text). */
const enum Group {
  Token = 't',
  Bigram = 'b',
  First = 'f',
  Last = 'l',
  Lead = 'p',
  Trigram = 'c',
}

const WEIGHTS: Record<Group, number> = {
  [Group.Token]: 1,
  [Group.Bigram]: 0.7,
  [Group.First]: 0.8,
  [Group.Last]: 0.6,
  [Group.Lead]: 0.8,
  [Group.Trigram]: 0.5,
};

/** 32-bit FNV-1a over the UTF-16 code units of `group + text`. */
function fnv1a(group: string, text: string): number {
  let h = Math.imul(2166136261 ^ group.charCodeAt(0), 16777619);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function normalizeToken(token: string): string {
  const c = token.charCodeAt(0);
  if (c >= 48 && c <= 57) return '0'; // numbers: one token
  return token.length > 24 ? token.slice(0, 24) : token;
}

export interface SparseFeatures {
  /** Bucket indices, ascending, unique. */
  indices: Uint32Array;
  /** L2-normalised values, same order. */
  values: Float32Array;
}

/** The hashed, weighted, normalised features of a text (`bits`: log2 of the bucket count). */
export function languageFeatures(raw: string, bits: number): SparseFeatures {
  const text = raw.length > FEATURE_MAX_CHARS ? raw.slice(0, FEATURE_MAX_CHARS) : raw;
  const mask = (1 << bits) - 1;
  const counts = new Map<number, number>();
  const weightOf = new Map<number, number>();
  const add = (group: Group, s: string) => {
    const index = fnv1a(group, s) & mask;
    counts.set(index, (counts.get(index) ?? 0) + 1);
    if (!weightOf.has(index)) weightOf.set(index, WEIGHTS[group]);
  };

  let previous = '\n';
  for (const line of text.split('\n')) {
    const tokens = (line.match(TOKEN) ?? []).map(normalizeToken);
    if (tokens.length === 0) continue;
    add(Group.First, tokens[0]);
    add(Group.Last, tokens[tokens.length - 1]);
    const lead = /^\s*([^\sA-Za-z0-9_$"'`([{<]{1,3})/.exec(line);
    if (lead) add(Group.Lead, lead[1]);
    for (const token of tokens) {
      add(Group.Token, token);
      add(Group.Bigram, `${previous} ${token}`);
      previous = token;
    }
    previous = '\n';
    add(Group.Bigram, `${tokens[tokens.length - 1]} \n`);
  }

  const squeezed = text.replace(/[ \t]+/g, ' ');
  for (let i = 0; i + 3 <= squeezed.length; i++) add(Group.Trigram, squeezed.slice(i, i + 3));

  const indices = Uint32Array.from(counts.keys()).sort();
  const values = new Float32Array(indices.length);
  let norm = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = weightOf.get(indices[i])! * Math.log1p(counts.get(indices[i])!);
    values[i] = v;
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < values.length; i++) values[i] /= norm;
  return { indices, values };
}
