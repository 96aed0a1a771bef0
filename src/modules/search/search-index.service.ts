import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { AssetChange, AssetProjection, AssetProjections } from '../assets/asset-unit-of-work';
import { AssetReader } from '../assets/asset.reader';
import { tagKey } from '../assets/asset-text';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { PostgresSearchStore } from './store/postgres.store';
import { IndexTerms, IndexedDocument, SearchStore } from './store/search-store';
import { SqliteSearchStore } from './store/sqlite.store';
import { MAX_INDEXED_CHARS, indexText, vocabulary } from '../intelligence/text/terms';

/** Characters of the text (after the name) that substring search covers. */
const HEAD_CHARS = 2000;
/** Assets checked (and indexed) per statement / transaction when looking for unindexed ones at boot. */
const BOOT_BATCH = 500;

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
export class SearchIndex implements AssetProjection, OnApplicationBootstrap {
  private readonly logger = new Logger('SearchIndex');
  readonly store: SearchStore;

  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    projections: AssetProjections,
  ) {
    this.store = db.dialect === 'postgres' ? new PostgresSearchStore() : new SqliteSearchStore(db);
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
  }

  /**
   * Indexes assets created in this transaction (an import's batch), their statements queued
   * together, and the vocabulary of them all added once: a term is in many documents of a batch,
   * and adding the vocabulary document by document was most of the time indexing took.
   */
  async indexCreated(em: EntityManager, aggregates: AssetAggregate[]): Promise<void> {
    const vocabulary = new Set<string>();
    await this.db.together(
      ...aggregates.map((aggregate) => () => {
        const doc = documentOf(aggregate);
        const terms = analyse(doc);
        for (const term of terms.vocabulary) vocabulary.add(term);
        return this.store.write(em, doc, { ...terms, vocabulary: [] }, true);
      }),
    );
    await this.store.addVocabulary(em, [...vocabulary]);
  }

  /** Reindexes one asset from its current rows, within `em`'s transaction (drops it once deleted). */
  async reindex(em: EntityManager, assetId: string): Promise<void> {
    const aggregate = await this.reader.live(em, assetId);
    await (aggregate ? this.index(em, aggregate) : this.remove(em, assetId));
  }

  /** Drops one asset from the index, within `em`'s transaction. */
  async remove(em: EntityManager, assetId: string): Promise<void> {
    await this.store.remove(em, assetId);
  }

  /**
   * Indexes live assets the index does not know (created before the index existed). An asset
   * and its document are written in one transaction, so the index holds one document per live
   * asset, and equal counts (two index-only counts: a few tens of milliseconds at a million
   * assets) mean there is nothing to do. Otherwise the live ids come from the assets module
   * (AssetReader), a page at a time, and the index is checked a page at a time.
   */
  async onApplicationBootstrap(): Promise<void> {
    const [live, documents] = await this.db.read(async (em) => [await this.reader.liveCount(em), await this.store.documentCount(em)]);
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
