import { EntityManager } from 'typeorm';
import { OutboxReader } from '../../common/events/outbox.reader';
import { EMBED_CHARS, closestFirst, codeEmbedding, textSimilarity } from '../intelligence/text/code-embedding';
import { VectorStore } from './store/vector.store';

/** Candidates the sketches pick for the exact re-ranking (at least; four times what is asked when more). */
const SKETCH_CANDIDATES = 256;
/**
 * Least cosine of an asset the dense stage returns. The shipped embedding's cosines are small
 * and overlap: on the retrieval dev set the target of a question is at 0.11 / 0.28 / 0.38 (5th,
 * 25th, 50th percentile), and a sentence about anything else ("what is the weather like today")
 * finds code at 0.2-0.3; so this only keeps out what has no relation at all (on dev, 0 and 0.1
 * rank identically). A question about nothing in the store gets the nearest code, with low scores.
 */
const MIN_SIMILARITY = 0.1;
/** Rows read per statement when the sketches are loaded. */
const LOAD_PAGE = 5_000;
/** Outbox events read per statement when catching up. */
const EVENTS_PAGE = 2_000;
/** Vectors written per statement (two parameters each). */
const WRITE_BATCH = 200;
/** Sketches of removed vectors tolerated before the next question loads them all again (or a tenth of them). */
const STALE_RELOAD = 1_000;

/**
 * Nearest assets to a question in Trove's offline code embedding (code-embedding.ts), over the
 * whole store: the dense first stage of relevance and neural code search, for code that shares
 * no word with the question (the lexical stages cannot find it).
 *
 * Each live, non-pseudo asset's vector (its name and the start of its text, as `closestFirst`
 * reads it) is written with its search document, in the same transaction, to `search_vectors`
 * (int8 per dimension, scaled to the largest). In memory, per instance, only a sketch: one bit
 * per dimension (its sign), 32 bytes an asset, by the vector's row number; a question is compared
 * with every sketch (Hamming distance), and the closest few hundred are read back from the table
 * and ranked by their exact cosine. Built at the first question, then kept in step with the store by reading the change
 * outbox (`stream_events`, the records an asset change commits with, whichever instance made it)
 * after the last event it applied; built again when the outbox was pruned past that point, the
 * search analysis version changed (a re-index rewrote every vector without events) or many
 * sketches belong to removed rows.
 */
export class DenseIndex {
  private state: Sketches | null = null;
  /** The catch-up in progress: questions arriving meanwhile wait for it rather than start another. */
  private syncing: Promise<Sketches | null> | null = null;

  constructor(
    private readonly vectors: VectorStore,
    private readonly outbox: OutboxReader,
    /** The search analysis version the index is written with (a change means every vector was rewritten). */
    private readonly analysisVersion: (em: EntityManager) => Promise<number>,
  ) {}

  /** The vector an asset is stored with, or null (pseudo assets, no known term, no shipped embedding). */
  static vectorOf(doc: { pseudo: boolean; name: string; content: string }): Buffer | null {
    const embedding = doc.pseudo ? null : codeEmbedding();
    const vector = embedding?.code([doc.name, doc.content.slice(0, EMBED_CHARS)].join('\n\n'));
    return vector ? quantise(vector) : null;
  }

  /**
   * Writes these assets' vectors, within `em`'s transaction: a null vector removes the asset's
   * (`created`: the assets are new, there is nothing to remove).
   */
  async write(
    em: EntityManager,
    rows: Array<{ assetId: string; vector: Buffer | null }>,
    created: boolean,
  ): Promise<void> {
    if (!created)
      await this.vectors.remove(
        em,
        rows.filter((r) => !r.vector).map((r) => r.assetId),
      );
    const kept = rows.flatMap((r) => (r.vector ? [{ assetId: r.assetId, vector: r.vector }] : []));
    for (let i = 0; i < kept.length; i += WRITE_BATCH) await this.vectors.write(em, kept.slice(i, i + WRITE_BATCH));
  }

  /** Removes an asset's vector, within `em`'s transaction. */
  remove(em: EntityManager, assetId: string): Promise<void> {
    return this.vectors.remove(em, [assetId]);
  }

  /**
   * Ids of the `limit` assets closest to the question's vector (from CodeEmbedding.question),
   * closest first. Empty when no asset has a vector.
   */
  async closest(em: EntityManager, question: Float32Array, limit: number): Promise<string[]> {
    const state = await this.sync(em);
    if (!state || state.size === 0) return [];
    const picked = state.nearest(sketchOf(question), Math.max(SKETCH_CANDIDATES, 4 * limit));
    const scored = (await this.vectors.ofDocs(em, picked)).map((r) => ({
      id: r.assetId,
      sim: cosine(question, r.vector),
    }));
    return closestFirst(scored.filter((r) => r.sim >= MIN_SIMILARITY)).slice(0, limit);
  }

  /**
   * The documents' ids, closest to the question first (ties by id): by the vectors stored for
   * them, which are what their name and text would embed to (up to int8 rounding; the stored one
   * reads every format of a multi-format asset), read instead of computed again; a document
   * without one (a pseudo asset, a store still being re-indexed) is embedded now, one with no
   * known term goes last.
   */
  async order(
    em: EntityManager,
    question: Float32Array,
    docs: Array<{ id: string; name: string | null; text: string }>,
  ): Promise<string[]> {
    const embedding = codeEmbedding();
    if (!embedding) return docs.map((d) => d.id);
    const stored = new Map(
      (
        await this.vectors.ofAssets(
          em,
          docs.map((d) => d.id),
        )
      ).map((r) => [r.assetId, r.vector]),
    );
    return closestFirst(
      docs.map((doc) => {
        const vector = stored.get(doc.id);
        return { id: doc.id, sim: vector ? cosine(question, vector) : textSimilarity(embedding, question, doc) };
      }),
    );
  }

  /** The sketches, brought up to the store's latest committed change (null: no embedding shipped). */
  private async sync(em: EntityManager): Promise<Sketches | null> {
    while (this.syncing) await this.syncing.catch(() => undefined);
    this.syncing = this.catchUp(em);
    try {
      return await this.syncing;
    } finally {
      this.syncing = null;
    }
  }

  private async catchUp(em: EntityManager): Promise<Sketches | null> {
    const embedding = codeEmbedding();
    if (!embedding) return null;
    const analysis = await this.analysisVersion(em);
    let state = this.state;
    if (
      !state ||
      state.analysis !== analysis ||
      state.stale > Math.max(STALE_RELOAD, state.size / 10) ||
      (await this.outbox.prunedThrough(em)) > state.through
    ) {
      state = this.state = await this.load(em, analysis, embedding.dim);
      return state;
    }
    for (;;) {
      const events = await this.outbox.after(em, state.through, EVENTS_PAGE);
      if (!events.length) return state;
      const assets = events.filter((e) => e.topic === 'assets');
      const changed = [...new Set(assets.map((e) => e.entityId))];
      const stored = await this.vectors.ofAssets(em, changed);
      for (const r of stored) state.set(r.doc, sketchOfInt8(r.vector));
      // A deleted asset's vector row is gone, and with it which sketch was its: that sketch stays
      // until the next load, and a question that picks it finds no row for it (rows are never
      // reused). Only deletions count: the changes of a pseudo asset (which has no vector) do not.
      const kept = new Set(stored.map((r) => r.assetId));
      state.stale += new Set(assets.filter((e) => e.deleted && !kept.has(e.entityId)).map((e) => e.entityId)).size;
      state.through = events[events.length - 1].id;
    }
  }

  /** Every stored vector's sketch, as of the outbox head read first (later changes are applied again: harmless). */
  private async load(em: EntityManager, analysis: number, dim: number): Promise<Sketches> {
    const state = new Sketches(dim, analysis, await this.outbox.head(em));
    for (let after = 0; ;) {
      const rows = await this.vectors.page(em, after, LOAD_PAGE);
      for (const r of rows) state.set(r.doc, sketchOfInt8(r.vector));
      if (rows.length < LOAD_PAGE) return state;
      after = rows[rows.length - 1].doc;
    }
  }
}

/** A unit vector as int8 per dimension, scaled so the largest component is 127. */
export function quantise(vector: Float32Array): Buffer {
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const out = Buffer.alloc(vector.length);
  const scale = max > 0 ? 127 / max : 0;
  for (let i = 0; i < vector.length; i++) out.writeInt8(Math.round(vector[i] * scale), i);
  return out;
}

/** Cosine of a unit vector and a stored int8 vector (0 when the stored one is empty or of another size). */
export function cosine(question: Float32Array, stored: Buffer): number {
  if (stored.length !== question.length) return 0;
  const v = new Int8Array(stored.buffer, stored.byteOffset, stored.length);
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    dot += question[i] * v[i];
    norm += v[i] * v[i];
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}

/** The signs of a vector's components, one bit each, in 32-bit words. */
export function sketchOf(vector: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(Math.ceil(vector.length / 32));
  for (let i = 0; i < vector.length; i++) if (vector[i] > 0) out[i >>> 5] |= 1 << (i & 31);
  return out;
}

function sketchOfInt8(stored: Buffer): Uint32Array {
  return sketchOf(new Int8Array(stored.buffer, stored.byteOffset, stored.length));
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The assets' sketches by their row number in `search_vectors` (never reused): 33 bytes a row
 * ever written since the last load, a million in about 33 MB; no asset ids in memory.
 */
export class Sketches {
  private bits: Uint32Array;
  /** 1 for a row with a sketch. */
  private used: Uint8Array;
  private readonly words: number;
  private count = 0;
  /** Sketches of rows removed since the load (approximate: changes whose vector was gone). */
  stale = 0;

  constructor(
    readonly dim: number,
    readonly analysis: number,
    /** The last outbox event applied. */
    public through: number,
  ) {
    this.words = Math.ceil(dim / 32);
    this.used = new Uint8Array(1024);
    this.bits = new Uint32Array(1024 * this.words);
  }

  get size(): number {
    return this.count;
  }

  set(doc: number, sketch: Uint32Array): void {
    if (sketch.length !== this.words || !Number.isSafeInteger(doc) || doc < 0) return;
    if (doc >= this.used.length) {
      const length = Math.max(doc + 1, Math.ceil(this.used.length * 1.5));
      const used = new Uint8Array(length);
      used.set(this.used);
      this.used = used;
      const bits = new Uint32Array(length * this.words);
      bits.set(this.bits);
      this.bits = bits;
    }
    if (this.used[doc] === 0) this.count++;
    this.used[doc] = 1;
    this.bits.set(sketch, doc * this.words);
  }

  /** Row numbers of the `n` sketches nearest to `sketch` (Hamming distance; ties in row order). */
  nearest(sketch: Uint32Array, n: number): number[] {
    const { bits, used, words } = this;
    const rows = used.length;
    const distance = new Uint16Array(rows);
    const histogram = new Uint32Array(words * 32 + 1);
    if (words === 8) {
      // The embedding's 256 dimensions, unrolled: the scan is most of a dense query's time at a million assets.
      const [s0, s1, s2, s3, s4, s5, s6, s7] = sketch;
      for (let at = 0, b = 0; at < rows; at++, b += 8) {
        if (used[at] === 0) continue;
        const d =
          popcount(bits[b] ^ s0) +
          popcount(bits[b + 1] ^ s1) +
          popcount(bits[b + 2] ^ s2) +
          popcount(bits[b + 3] ^ s3) +
          popcount(bits[b + 4] ^ s4) +
          popcount(bits[b + 5] ^ s5) +
          popcount(bits[b + 6] ^ s6) +
          popcount(bits[b + 7] ^ s7);
        distance[at] = d;
        histogram[d]++;
      }
    } else {
      for (let at = 0; at < rows; at++) {
        if (used[at] === 0) continue;
        let d = 0;
        for (let w = 0, b = at * words; w < words; w++) d += popcount(bits[b + w] ^ sketch[w]);
        distance[at] = d;
        histogram[d]++;
      }
    }
    // The largest distance still taken, so that at least n are (ties at it included).
    let cut = 0;
    for (let taken = 0; cut < histogram.length && taken + histogram[cut] < n; cut++) taken += histogram[cut];
    const out: number[] = [];
    for (let at = 0; at < rows; at++) if (used[at] === 1 && distance[at] <= cut) out.push(at);
    return out.sort((a, b) => distance[a] - distance[b] || a - b).slice(0, n);
  }
}
