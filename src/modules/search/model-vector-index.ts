import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { AssetReader } from '../assets/asset.reader';
import { MemoryVectorSearch } from '../assets/memory-vector-search';
import { WorkstreamSummaryReader } from '../assets/workstream-summary.reader';
import { EmbeddingModel } from '../intelligence/text/embedding-model';
import { ModelVectorStore, VectorKind } from './store/model-vector.store';

/** Texts per embedding request, and requests in flight at once. */
export const EMBED_BATCH = 32;
const CONCURRENCY = 2;
/** Characters of a record embedded (its name first). */
const EMBED_CHARS = 8_000;
/** The wait after a failed embedding request, doubled at each failure in a row up to the most. */
const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;
/** Ids read per statement when the store is walked at start, and vectors when the index is loaded. */
const PAGE = 1_000;
/** Least cosine of a record the index returns: below it a record has nothing to do with the query. */
const MIN_SIMILARITY = 0.25;
/**
 * How often a search reads the vectors other instances wrote (PostgreSQL, several instances on one
 * store), and how far back from the last one read (their clocks may differ a little).
 */
const REFRESH_MS = 5_000;
const REFRESH_OVERLAP_MS = 60_000;
/** Query vectors kept (a question is often searched several times at once: snippets, memories). */
const QUERY_CACHE = 64;

const KINDS: VectorKind[] = ['asset', 'memory'];

/** The text a record is embedded as, and the hash its stored vector is checked against. */
function embedded(parts: Array<string | null | undefined>): { text: string; hash: string } {
  const text = parts
    .filter((p): p is string => !!p && p.trim().length > 0)
    .join('\n\n')
    .slice(0, EMBED_CHARS);
  return { text, hash: createHash('sha256').update(text).digest('hex') };
}

function unit(vector: ArrayLike<number>): Float32Array | null {
  const out = Float32Array.from(vector as ArrayLike<number>);
  let norm = 0;
  for (const x of out) norm += x * x;
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < out.length; i++) out[i] *= scale;
  return out;
}

/** One kind's unit vectors in one model, in memory: a Float32 matrix, a row per record (brute-force cosine). */
export class VectorMatrix {
  private ids: string[] = [];
  private rows = new Map<string, number>();
  private data = new Float32Array(0);
  private dim = 0;

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  set(id: string, vector: Float32Array): void {
    if (this.dim === 0) this.dim = vector.length;
    if (vector.length !== this.dim) return;
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if ((row + 1) * this.dim > this.data.length) {
        const grown = new Float32Array(Math.max(64, Math.ceil((row + 1) * 1.5)) * this.dim);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.rows.set(id, row);
    }
    this.data.set(vector, row * this.dim);
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last];
      this.ids[row] = moved;
      this.rows.set(moved, row);
      this.data.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /** The `limit` rows closest to a unit vector with a cosine of at least `min`, closest first (ties by id). */
  nearest(query: Float32Array, limit: number, min: number): Array<{ id: string; score: number }> {
    if (query.length !== this.dim || limit <= 0) return [];
    const { data, dim } = this;
    const found: Array<{ id: string; score: number }> = [];
    for (let row = 0, at = 0; row < this.ids.length; row++, at += dim) {
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += data[at + i] * query[i];
      if (dot >= min) found.push({ id: this.ids[row], score: dot });
    }
    return found.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id)).slice(0, limit);
  }
}

interface Loaded {
  matrix: VectorMatrix;
  /** Resolves once every stored vector is in `matrix`. */
  ready: Promise<void>;
  /** Ids set or removed while the stored vectors were being read (what was read of them is older). */
  touched: Set<string> | null;
  /** The latest write time read (ISO-8601), and when the table was last read for newer ones. */
  newest: string;
  refreshed: number;
  refreshing: Promise<void> | null;
}

/**
 * The hybrid retrieval index: with an embedding model configured (TROVE_EMBEDDING_MODEL), every
 * snippet (live, non-pseudo asset: its name and first format's text) and memory (its name,
 * description and text) has a vector in that model in `search_model_vectors`, with the hash of
 * the text it was computed from. Searches embed the query and take the nearest records over the
 * whole store, which the snippet and memory searches fuse (reciprocal rank) with their lexical
 * rankings: a record sharing no word with the query can be found.
 *
 * Vectors are computed in the background after the change that needs them has committed
 * (AssetChangedEvent, WorkstreamSummaryChangedEvent): queued, embedded EMBED_BATCH texts a
 * request, CONCURRENCY requests at once, each bounded by TROVE_PROVIDER_TIMEOUT_MS; a failing
 * provider is retried after a back-off (1 s doubling to 60 s), never failing a request. At start
 * every live record is queued again, and one whose stored hash for the current model matches is
 * skipped without a request: what a crash left unembedded, a changed text and a new model (whose
 * rows are under another model key) are embedded; vectors of records no longer live are removed.
 *
 * In memory, per kind, one Float32 matrix of the current model's unit vectors, read at the
 * first search and then kept in step by this instance's writes and, every 5 s at most, by the
 * rows other instances wrote (brute-force cosine: 100,000 records of 768 dimensions are 300 MB).
 * No model configured: nothing is queued, read or embedded.
 */
@Injectable()
export class ModelVectorIndex implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ModelVectors');
  private readonly store: ModelVectorStore;
  private readonly loaded = new Map<VectorKind, Loaded>();
  /** Records waiting to be embedded, by `kind:id`, oldest first. */
  private readonly queue = new Map<string, { kind: VectorKind; id: string }>();
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private failures = 0;
  private retryAt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly queries = new Map<string, Promise<Float32Array | null>>();
  private stopping = false;
  /** Resolves when the app closes: an embedding request under way is then left to end on its own. */
  private stop: () => void = () => undefined;
  private readonly stopped = new Promise<void>((resolve) => (this.stop = resolve));
  /** The walk of the store at start while it runs. */
  private resuming: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
    private readonly memories: WorkstreamSummaryReader,
    private readonly embedding: EmbeddingModel,
    private readonly config: AppConfig,
    memorySearch: MemoryVectorSearch,
  ) {
    this.store = new ModelVectorStore(db);
    memorySearch.register(async (query, limit) => (await this.nearest('memory', query, limit)).map((hit) => hit.id));
  }

  /** The configured embedding model (`provider:name`), or null (the index is off). */
  get model(): string | null {
    return this.embedding.model;
  }

  /** Records waiting for their vector (queued or being embedded). */
  get pending(): number {
    return this.queue.size + this.inFlight;
  }

  onApplicationBootstrap(): void {
    if (!this.model) return;
    this.resuming = this.resume()
      .catch((error: unknown) => {
        if (!this.stopping)
          this.logger.warn(`could not walk the store for records to embed: ${(error as Error).message}`);
      })
      .finally(() => (this.resuming = null));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.stop();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.queue.clear();
    await this.resuming;
    await Promise.all([...this.running]);
  }

  /** Queues a record whose text may have changed (or that may be gone) for its vector. */
  enqueue(kind: VectorKind, id: string): void {
    if (!this.model || this.stopping) return;
    this.queue.set(`${kind}:${id}`, { kind, id });
    this.pump();
  }

  /**
   * The records of a kind nearest to the query in the embedding model, nearest first, at most
   * `limit`, each with its cosine. None without a model, for an empty query, or when the model
   * does not answer within TROVE_EMBEDDING_QUERY_TIMEOUT_MS (the search is then lexical only).
   */
  async nearest(kind: VectorKind, query: string, limit: number): Promise<Array<{ id: string; score: number }>> {
    const text = query.trim().slice(0, EMBED_CHARS);
    if (!this.model || !text || limit <= 0) return [];
    const loaded = await this.load(kind).catch(() => null);
    // Nothing embedded yet: no need to embed the query.
    if (!loaded || loaded.matrix.size === 0) return [];
    const vector = await this.queryVector(text);
    if (!vector) return [];
    return loaded.matrix.nearest(vector, limit, MIN_SIMILARITY);
  }

  private queryVector(text: string): Promise<Float32Array | null> {
    const cached = this.queries.get(text);
    if (cached) {
      this.queries.delete(text);
      this.queries.set(text, cached);
      return cached;
    }
    const made = this.embedding
      .embed([text], this.config.embeddingQueryTimeoutMs)
      .then(([vector]) => unit(vector))
      .catch((error: unknown) => {
        this.queries.delete(text);
        this.logger.warn(`query not embedded, searching the lexical index alone: ${(error as Error).message}`);
        return null;
      });
    this.queries.set(text, made);
    while (this.queries.size > QUERY_CACHE) this.queries.delete(this.queries.keys().next().value!);
    return made;
  }

  /** The kind's matrix, read from the table at the first call. */
  private load(kind: VectorKind): Promise<Loaded> {
    const model = this.model!;
    let loaded = this.loaded.get(kind);
    if (!loaded) {
      const matrix = new VectorMatrix();
      const state: Loaded = {
        matrix,
        touched: new Set(),
        ready: Promise.resolve(),
        newest: '',
        refreshed: Date.now(),
        refreshing: null,
      };
      state.ready = (async () => {
        for (let after = ''; ;) {
          const rows = await this.db.read((em) => this.store.page(em, kind, model, after, PAGE, true));
          for (const row of rows) {
            const vector = state.touched!.has(row.id) ? null : unit(row.vector);
            if (vector) matrix.set(row.id, vector);
            if (row.updated > state.newest) state.newest = row.updated;
          }
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1].id;
        }
        state.touched = null;
      })();
      state.ready.catch(() => this.loaded.delete(kind));
      this.loaded.set(kind, (loaded = state));
    }
    const ready = loaded;
    return ready.ready.then(() => this.refresh(kind, ready)).then(() => ready);
  }

  /**
   * Vectors other instances wrote since the newest one read (every REFRESH_MS at most): a record
   * they embedded is found here too. (One they removed stays until this instance restarts or
   * removes it; searches read only live records, so a deleted one is never returned.)
   */
  private refresh(kind: VectorKind, loaded: Loaded): Promise<void> {
    if (loaded.refreshing) return loaded.refreshing;
    if (Date.now() - loaded.refreshed < REFRESH_MS) return Promise.resolve();
    const model = this.model!;
    loaded.refreshed = Date.now();
    const since = loaded.newest ? new Date(Date.parse(loaded.newest) - REFRESH_OVERLAP_MS).toISOString() : '';
    loaded.refreshing = this.db
      .read((em) => this.store.writtenSince(em, kind, model, since, PAGE))
      .then((rows) => {
        for (const row of rows) {
          const vector = unit(row.vector);
          if (vector) loaded.matrix.set(row.id, vector);
          if (row.updated > loaded.newest) loaded.newest = row.updated;
        }
        // More than a page written elsewhere: read them all again at the next search.
        if (rows.length === PAGE) this.loaded.delete(kind);
      })
      .catch(() => undefined)
      .finally(() => (loaded.refreshing = null));
    return loaded.refreshing;
  }

  /** Applies a written or removed vector to the kind's matrix when it is in memory. */
  private applied(kind: VectorKind, id: string, vector: Float32Array | null): void {
    const loaded = this.loaded.get(kind);
    if (!loaded) return;
    loaded.touched?.add(id);
    if (vector) loaded.matrix.set(id, vector);
    else loaded.matrix.remove(id);
  }

  /** Queues every live record (the batches skip those whose vector is current) and removes the vectors of records gone. */
  private async resume(): Promise<void> {
    const model = this.model!;
    for (const kind of KINDS) {
      const live = new Set<string>();
      const pages =
        kind === 'asset' ? this.assets.walkIds({ pseudo: false, pageSize: PAGE }) : this.memories.walkIds(PAGE);
      for await (const ids of pages) {
        if (this.stopping) return;
        for (const id of ids) {
          live.add(id);
          this.enqueue(kind, id);
        }
      }
      const gone: string[] = [];
      for (let after = ''; ;) {
        const rows = await this.db.read((em) => this.store.page(em, kind, model, after, PAGE, false));
        for (const row of rows) if (!live.has(row.id) && !this.queue.has(`${kind}:${row.id}`)) gone.push(row.id);
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1].id;
      }
      // A record created since the walk has no stored vector yet; one deleted since is queued by its event.
      for (const id of gone) this.enqueue(kind, id);
    }
  }

  private pump(): void {
    if (this.stopping) return;
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        this.pump();
      }, wait);
      return;
    }
    while (this.inFlight < CONCURRENCY && this.queue.size > 0) {
      // The oldest EMBED_BATCH (not a copy of the whole queue: at start it holds every record).
      const batch: Array<{ kind: VectorKind; id: string }> = [];
      for (const [key, item] of this.queue) {
        batch.push(item);
        this.queue.delete(key);
        if (batch.length === EMBED_BATCH) break;
      }
      this.inFlight++;
      const run = this.embedBatch(batch).finally(() => {
        this.inFlight--;
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  /** Reads the records' texts, removes the vectors of those gone, embeds those whose vector is missing or stale, writes them. */
  private async embedBatch(items: Array<{ kind: VectorKind; id: string }>): Promise<void> {
    const model = this.model!;
    try {
      const work: Array<{ kind: VectorKind; id: string; text: string; hash: string }> = [];
      const gone: Array<{ kind: VectorKind; id: string }> = [];
      await this.db.read(async (em) => {
        for (const kind of KINDS) {
          const ids = items.filter((i) => i.kind === kind).map((i) => i.id);
          if (!ids.length) continue;
          const texts = new Map<string, { text: string; hash: string }>();
          if (kind === 'asset') {
            const pseudo = await this.assets.pseudoAmong(em, ids);
            for (const row of await this.assets.firstFormatTexts(em, ids))
              if (!pseudo.has(row.id)) texts.set(row.id, embedded([row.name, row.raw]));
          } else {
            for (const row of await this.memories.liveLinked(em, ids))
              texts.set(row.id, embedded([row.name, row.description, row.text]));
          }
          const stored = await this.store.hashes(em, kind, model, ids);
          for (const id of ids) {
            const found = texts.get(id);
            if (!found || !found.text) {
              if (stored.has(id) || this.loaded.get(kind)?.matrix.has(id)) gone.push({ kind, id });
            } else if (stored.get(id) !== found.hash) work.push({ kind, id, ...found });
          }
        }
      });
      if (gone.length) {
        await this.db.transaction(async (em) => {
          for (const kind of KINDS)
            await this.store.remove(
              em,
              kind,
              gone.filter((g) => g.kind === kind).map((g) => g.id),
            );
        });
        for (const g of gone) this.applied(g.kind, g.id, null);
      }
      if (!work.length || this.stopping) return;
      let vectors: number[][] | null;
      try {
        vectors = await Promise.race([
          this.embedding.embed(
            work.map((w) => w.text),
            this.config.providerTimeoutMs,
          ),
          this.stopped.then(() => null),
        ]);
      } catch (error) {
        this.failed(items, error);
        return;
      }
      if (!vectors) return;
      this.failures = 0;
      const rows = work.flatMap((w, i) => {
        const vector = unit(vectors[i] ?? []);
        return vector ? [{ ...w, vector }] : [];
      });
      if (this.stopping) return;
      await this.db.transaction(async (em) => {
        for (const kind of KINDS)
          await this.store.write(
            em,
            kind,
            model,
            rows.filter((r) => r.kind === kind),
          );
      });
      for (const row of rows) this.applied(row.kind, row.id, row.vector);
    } catch (error) {
      // A storage error (the store closing, a write failing): the records are tried again later.
      if (!this.stopping) this.failed(items, error);
    }
  }

  /** The batch goes back to the queue, to be tried after the back-off. */
  private failed(items: Array<{ kind: VectorKind; id: string }>, error: unknown): void {
    if (this.stopping) return;
    const wait = Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** this.failures);
    this.failures++;
    this.retryAt = Date.now() + wait;
    for (const item of items)
      if (!this.queue.has(`${item.kind}:${item.id}`)) this.queue.set(`${item.kind}:${item.id}`, item);
    this.logger.warn(
      `embedding ${items.length} records failed (${(error as Error).message}); trying again in ${wait / 1000} s`,
    );
  }
}
