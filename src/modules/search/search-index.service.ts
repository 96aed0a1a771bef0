import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { AssetChange, AssetProjection, AssetProjections } from '../assets/asset-unit-of-work';
import { AssetReader } from '../assets/asset.reader';
import { tagKey } from '../assets/asset-text';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { PostgresSearchStore } from './store/postgres.store';
import { IndexTerms, IndexedDocument, SearchStore } from './store/search-store';
import { SqliteSearchStore } from './store/sqlite.store';
import { DenseIndex } from './dense-index';
import { VectorStore } from './store/vector.store';
import { OutboxReader } from '../../common/events/outbox.reader';
import { MAX_INDEXED_CHARS, indexText, vocabulary } from '../intelligence/text/terms';

/** Characters of the text (after the name) that substring search covers. */
const HEAD_CHARS = 2000;
/** Assets checked (and indexed) per statement / transaction when looking for unindexed ones at boot. */
const BOOT_BATCH = 500;
/**
 * The version of the text analysis (`analyse`, `indexText`) the index is written with. Raise it
 * when a change makes documents index differently: the index of a store written with an older
 * version is rewritten at the next boot (`search_analysis` records which version wrote it).
 * Raise it too when the shipped code embedding (`code-embedding.bin`) changes: the stored vectors
 * are its vectors, and the dense stage and the re-ordering compare them with its question vectors.
 * 2: joined words (`valuestodict` -> values, to, dict).
 * 3: each asset's vector in the offline code embedding (`search_vectors`, DenseIndex).
 */
export const ANALYSIS_VERSION = 3;
/** Key of the PostgreSQL advisory lock of the boot-time re-indexing ("trovei" in ASCII). */
const REINDEX_LOCK = 0x74726f766569;

/**
 * The search index over assets: a projection of them (AssetProjection), brought in step INSIDE
 * the transaction that changes an asset (AssetUnitOfWork), so search never sees a half-written
 * asset. The search module depends on the assets module, not the other way round.
 *
 * Tables (raw SQL, created by the SearchIndex migrations; not TypeORM entities):
 * `search_documents` (one row per live asset: its searchable fields, pseudo flag, dates),
 * the full-text structures of the dialect (see store/*.store.ts), `search_tags` (normalised
 * tags) and `search_vocab` (every term ever indexed with its reverse, for typo correction;
 * it only grows, a term of a deleted asset is checked against live documents before use).
 */
@Injectable()
export class SearchIndex implements AssetProjection, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SearchIndex');
  readonly store: SearchStore;
  /** Each asset's vector in the offline code embedding, and the nearest ones to a question. */
  readonly dense: DenseIndex;
  /** The background re-indexing while it runs (see onApplicationBootstrap), and whether the app is closing. */
  private reindexing: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    outbox: OutboxReader,
    projections: AssetProjections,
  ) {
    this.store = db.dialect === 'postgres' ? new PostgresSearchStore() : new SqliteSearchStore(db);
    this.dense = new DenseIndex(new VectorStore(db), outbox, (em) => this.store.analysisVersion(em));
    projections.register(this);
  }

  /** The changed assets, as the unit of work that changed them saw them (or read now). */
  async apply(em: EntityManager, changes: AssetChange[]): Promise<void> {
    if (changes.length > 1 && changes.every((c) => c.change === 'created' && c.aggregate)) {
      return this.indexCreated(
        em,
        changes.map((c) => c.aggregate!),
      );
    }
    for (const change of changes) {
      if (change.change === 'scored') continue; // counters are not searchable
      if (change.change === 'deleted') await this.remove(em, change.id);
      else if (change.aggregate) await this.index(em, change.aggregate, { created: change.change === 'created' });
      else await this.reindex(em, change.id);
    }
  }

  /**
   * Indexes one live asset as `aggregate` shows it (read within `em`'s transaction, after the
   * change). `created`: the asset was created in this transaction (nothing indexed to replace).
   */
  async index(em: EntityManager, aggregate: AssetAggregate, options: { created?: boolean } = {}): Promise<void> {
    const doc = documentOf(aggregate);
    await this.store.write(em, doc, analyse(doc), options.created === true);
    await this.dense.write(em, [{ assetId: doc.assetId, vector: DenseIndex.vectorOf(doc) }], options.created === true);
  }

  /**
   * Indexes assets created in this transaction (an import's batch), their statements queued
   * together, and the vocabulary of them all added once: a term is in many documents of a batch,
   * and adding the vocabulary document by document was most of the time indexing took.
   */
  async indexCreated(em: EntityManager, aggregates: AssetAggregate[]): Promise<void> {
    await this.indexMany(em, aggregates, { created: true });
  }

  /** Indexes `aggregates` within `em`'s transaction, the vocabulary of them all added once (`created`: see index). */
  private async indexMany(
    em: EntityManager,
    aggregates: AssetAggregate[],
    options: { created: boolean },
  ): Promise<void> {
    const vocabulary = new Set<string>();
    const vectors: Array<{ assetId: string; vector: Buffer | null }> = [];
    await this.db.together(
      ...aggregates.map((aggregate) => () => {
        const doc = documentOf(aggregate);
        const terms = analyse(doc);
        for (const term of terms.vocabulary) vocabulary.add(term);
        vectors.push({ assetId: doc.assetId, vector: DenseIndex.vectorOf(doc) });
        return this.store.write(em, doc, { ...terms, vocabulary: [] }, options.created);
      }),
    );
    await this.store.addVocabulary(em, [...vocabulary]);
    await this.dense.write(em, vectors, options.created);
  }

  /** Reindexes one asset from its current rows, within `em`'s transaction (drops it once deleted). */
  async reindex(em: EntityManager, assetId: string): Promise<void> {
    const aggregate = await this.reader.live(em, assetId);
    await (aggregate ? this.index(em, aggregate) : this.remove(em, assetId));
  }

  /** Drops one asset from the index, within `em`'s transaction. */
  async remove(em: EntityManager, assetId: string): Promise<void> {
    await this.store.remove(em, assetId);
    await this.dense.remove(em, assetId);
  }

  /**
   * At boot: index the live assets the index misses (before serving), then, when an older
   * analysis wrote the index, re-index every asset in the background while the server serves
   * (search finds what the old index holds meanwhile). A million assets take minutes; startup
   * does not wait for them.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.indexMissing();
    if ((await this.analysisVersion()) >= ANALYSIS_VERSION) return;
    this.reindexing = this.db
      .unlessBusy(REINDEX_LOCK, () => this.reanalyse())
      .catch((error: unknown) => {
        if (!this.stopping)
          this.logger.error(
            `re-indexing with the current analysis failed (it runs again at the next start): ${String(error)}`,
          );
      })
      .finally(() => (this.reindexing = null));
  }

  /** The background re-indexing with this release's analysis is under way here (for the metrics). */
  get reindexRunning(): boolean {
    return this.reindexing !== null;
  }

  /** Stops the background re-indexing between two pages (it starts over at the next boot). */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    await this.reindexing;
  }

  private async analysisVersion(): Promise<number> {
    return this.db.read((em) => this.store.analysisVersion(em));
  }

  /**
   * Indexes every live asset again, with this release's analysis, a page per transaction, and
   * then records the version. One instance does it: one booting while another holds the lock
   * leaves it to that one (and never waits for it, nor makes its own shutdown wait); an asset changed meanwhile (by a request, or another instance) is locked while its
   * page is written, so the page is read after that change or the change waits for the page.
   */
  private async reanalyse(): Promise<void> {
    const from = await this.analysisVersion();
    if (from >= ANALYSIS_VERSION) return;
    const started = Date.now();
    let total = 0;
    for await (const page of this.reader.walkIds({ pseudo: true, pageSize: BOOT_BATCH })) {
      if (this.stopping) return;
      total += await this.db.transaction(async (em) => {
        await this.reader.lock(em, page);
        const aggregates = await this.reader.liveAggregates(em, page);
        await this.indexMany(em, aggregates, { created: false });
        return aggregates.length;
      });
    }
    await this.db.transaction((em) => this.store.recordAnalysis(em, ANALYSIS_VERSION));
    if (total)
      this.logger.log(
        `re-indexed ${total} assets with the search analysis of this release (version ${from} -> ${ANALYSIS_VERSION}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
  }

  /**
   * Indexes live assets the index does not know (created before the index existed). An asset
   * and its document are written in one transaction, so the index holds one document per live
   * asset, and equal counts (two index-only counts: a few tens of milliseconds at a million
   * assets) mean there is nothing to do. Otherwise the live ids come from the assets module
   * (AssetReader), a page at a time, and the index is checked a page at a time.
   */
  private async indexMissing(): Promise<void> {
    const [live, documents] = await this.db.read(async (em) => [
      await this.reader.liveCount(em),
      await this.store.documentCount(em),
    ]);
    if (live === documents) return;
    let total = 0;
    for await (const page of this.reader.walkIds({ pseudo: true, pageSize: BOOT_BATCH })) {
      const indexed = await this.db.read((em) => this.store.indexed(em, page));
      const missing = page.filter((id) => !indexed.has(id));
      if (missing.length === 0) continue;
      await this.db.transaction(async (em) => this.indexCreated(em, await this.reader.liveAggregates(em, missing)));
      total += missing.length;
    }
    if (total) this.logger.log(`indexed ${total} assets that were missing from the search index`);
  }
}

/** What the index keeps of an asset. */
function documentOf({ asset, formats, annotations, tags, websites }: AssetAggregate): IndexedDocument {
  return {
    assetId: asset.id,
    pseudo: Boolean(asset.pseudo),
    name: asset.name ?? '',
    annotations: annotations.map((n) => n.text).join('\n'),
    content: formats.map((f) => f.raw).join('\n'),
    tags: [...new Set(tags.map((t) => tagKey(t.text)))],
    websites: websites.map((w) => `${w.url} ${w.name}`.toLowerCase()),
    specifics: [...new Set(formats.map((f) => f.specific).filter(Boolean))],
    createdAt: asset.createdAt,
    updatedAt: asset.updatedAt,
  };
}

function analyse(doc: IndexedDocument): IndexTerms {
  const name = indexText(doc.name);
  const annotations = indexText(doc.annotations);
  const tags = indexText(doc.tags.join(' '));
  const websites = indexText(doc.websites.join(' '));
  const content = indexText(doc.content.slice(0, MAX_INDEXED_CHARS));
  return {
    name,
    annotations,
    tags,
    websites,
    content,
    head: doc.content.slice(0, HEAD_CHARS).toLowerCase(),
    vocabulary: vocabulary(`${name} ${annotations} ${tags} ${content}`),
  };
}
