import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFile } from '../model-file';
import { contentTerms, stem } from './extractive-answerer';
import { splitRun } from './word-split';

/**
 * Trove's offline code-search embedding: natural-language questions and code as vectors in one
 * space, so "return the number of elements" lands near `def count_items(...): return len(...)`
 * even when they share no word.
 *
 * A neural bag of words (the CodeSearchNet baseline) trained at development time on (docstring,
 * function) pairs from Debian packages in six languages (ml/embedding, docs/MODELS.md) and shipped
 * as `code-embedding.bin` beside this file; nothing is downloaded. A text's vector is the sum of
 * its terms' vectors (contentTerms, the tokenisation search uses), each weighted by a learned
 * per-term weight for its side (question or code) times log(1 + count), normalised; a question's
 * vector then goes through a learned square map. The packages of the retrieval held-out and dev
 * sets (ml/retrieval) were kept out of training.
 *
 * File layout (written by ml/embedding/train.py): `TCE1`, uint32 header length, header JSON
 * ({dim, vocab}), float32 row scales [V], int8 vectors [V x dim], float32 question weights [V],
 * float32 code weights [V], float32 question map [dim x dim]. Read on first use (about 6 MB).
 */
export const CODE_EMBEDDING_FILE = join(__dirname, 'code-embedding.bin');

interface Header {
  version: number;
  dim: number;
  vocab: string[];
}

export class CodeEmbedding {
  private constructor(
    readonly dim: number,
    private readonly index: Map<string, number>,
    private readonly scale: Float32Array,
    private readonly vectors: Int8Array,
    private readonly questionWeights: Float32Array,
    private readonly codeWeights: Float32Array,
    private readonly questionMap: Float32Array,
  ) {}

  static fromBuffer(buffer: Buffer): CodeEmbedding {
    const file = new ModelFile<Header>(buffer, 'TCE1', 'code embedding');
    const { version, dim, vocab } = file.header;
    if (version !== 1) throw new Error(`unsupported code embedding version ${version}`);
    const v = vocab.length;
    const expected = 4 * v + v * dim + 8 * v + 4 * dim * dim;
    if (file.remaining !== expected)
      throw new Error(`code embedding has ${file.remaining} bytes of weights, its header says ${expected}`);
    const scale = file.floats(v);
    const vectors = file.int8(v * dim);
    const questionWeights = file.floats(v);
    const codeWeights = file.floats(v);
    const questionMap = file.floats(dim * dim);
    return new CodeEmbedding(
      dim,
      new Map(vocab.map((t, i) => [t, i])),
      scale,
      vectors,
      questionWeights,
      codeWeights,
      questionMap,
    );
  }

  static load(file = CODE_EMBEDDING_FILE): CodeEmbedding {
    return CodeEmbedding.fromBuffer(readFileSync(file));
  }

  /** A question's unit vector, or undefined when none of its terms is known. */
  question(text: string): Float32Array | undefined {
    const v = this.pool(contentTerms(text), this.questionWeights);
    if (!v) return undefined;
    const out = new Float32Array(this.dim);
    // row vector times the map: out[j] = sum_i v[i] * map[i][j]
    for (let i = 0; i < this.dim; i++) {
      const x = v[i];
      if (x === 0) continue;
      const row = i * this.dim;
      for (let j = 0; j < this.dim; j++) out[j] += x * this.questionMap[row + j];
    }
    return normalise(out);
  }

  /** A piece of code's unit vector, or undefined when none of its terms is known. */
  code(text: string): Float32Array | undefined {
    return this.codeTerms(contentTerms(text));
  }

  /** The same from the code's contentTerms, when the caller has them already. */
  codeTerms(terms: string[]): Float32Array | undefined {
    return this.pool(terms, this.codeWeights);
  }

  private pool(terms: string[], weights: Float32Array): Float32Array | undefined {
    const counts = new Map<number, number>();
    for (const t of terms) {
      const i = this.index.get(t);
      if (i !== undefined) counts.set(i, (counts.get(i) ?? 0) + 1);
      else
        for (const part of splitRun(t)) {
          const j = this.index.get(stem(part));
          if (j !== undefined) counts.set(j, (counts.get(j) ?? 0) + 1);
        }
    }
    if (counts.size === 0) return undefined;
    const out = new Float32Array(this.dim);
    for (const [i, n] of counts) {
      const w = weights[i] * Math.log1p(n) * this.scale[i];
      const row = i * this.dim;
      for (let j = 0; j < this.dim; j++) out[j] += w * this.vectors[row + j];
    }
    return normalise(out);
  }
}

function normalise(v: Float32Array): Float32Array | undefined {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  if (norm === 0) return undefined;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/** Dot product of two unit vectors (their cosine). */
export function similarity(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Characters of a document's text (after its name) that `closestFirst` reads: a function, or the head of a file. */
export const EMBED_CHARS = 1_000;

/**
 * How close a document's name and the start of its text are to a question's vector (their
 * cosine), as the dense index stores it; -1 for a document with no known term.
 */
export function textSimilarity(
  embedding: CodeEmbedding,
  asked: Float32Array,
  doc: { name: string | null; text: string },
): number {
  const vector = embedding.code([doc.name ?? '', doc.text.slice(0, EMBED_CHARS)].join('\n\n'));
  return vector ? similarity(asked, vector) : -1;
}

/** Ids by similarity, closest first (ties by id). */
export function closestFirst(scored: Array<{ id: string; sim: number }>): string[] {
  return scored.sort((a, b) => b.sim - a.sim || (a.id < b.id ? -1 : 1)).map((c) => c.id);
}

let shared: CodeEmbedding | null | undefined;

/** The shipped embedding, read on first use; null (logged once) when the file is missing or unreadable. */
export function codeEmbedding(): CodeEmbedding | null {
  if (shared !== undefined) return shared;
  try {
    shared = CodeEmbedding.load();
  } catch (err) {
    shared = null;
    new Logger('CodeEmbedding').warn(
      `offline code embedding disabled: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return shared;
}
