import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, ObjectLiteral } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { chunks as chunksOf } from '../../common/database/chunks';
import { incrementColumns } from '../../common/database/entity-rows';
import { nowIso } from '../../common/wire/common.wire';
import { normaliseTag, normaliseUrl } from './asset-text';
import { ActivityEntity } from './activity.entity';
import { AnnotationEntity } from './annotation.entity';
import { AssetEnrichmentEntity } from './asset-enrichment.entity';
import { AssetEntity } from './asset.entity';
import { FormatEntity } from './format.entity';
import { SensitiveEntity } from './sensitive.entity';
import { AssetTagEntity, TagEntity } from './tag.entity';
import { AssetWebsiteEntity, WebsiteEntity } from './website.entity';
import { AssetWorkstreamSummaryEntity, WorkstreamSummaryEntity } from './workstream-summary.entity';

export interface TagInput {
  text: string;
  category?: string;
  mechanism?: string;
}
export interface WebsiteInput {
  url: string;
  name?: string;
  mechanism?: string;
}
export interface AnnotationInput {
  id?: string;
  type: string;
  text: string;
  mechanism?: string;
}

/** One kind of linked record: its table and unique key, the other columns it is created with, its join table. */
interface LinkKind {
  records: string;
  key: string;
  columns: [string, string];
  links: string;
  link: string;
}
const TAGS: LinkKind = {
  records: 'tags',
  key: 'text',
  columns: ['category', 'mechanism'],
  links: 'asset_tags',
  link: 'tag_id',
};
const WEBSITES: LinkKind = {
  records: 'websites',
  key: 'url',
  columns: ['name', 'mechanism'],
  links: 'asset_websites',
  link: 'website_id',
};

interface LinkOptions {
  /** The asset was created in this transaction: it has no links yet, so none is stale. */
  created?: boolean;
}

/** The records an asset can be linked to one at a time (POST /asset/{id}/{kind}/associate/{target}). */
export type AssetLinkKind = 'tag' | 'website' | 'workstream_summary';

/**
 * The join table of each kind of link, and the linked record, whose `updated` a (dis)association
 * touches: websites and summaries, not tags, whose `updated` is the version asset reads check
 * their copies in memory against (TagRecords): a link changes the asset, not the tag.
 */
const LINK_TABLES: Record<
  AssetLinkKind,
  { target?: new () => ObjectLiteral; join: new () => ObjectLiteral; column: string }
> = {
  tag: { join: AssetTagEntity, column: 'tagId' },
  website: { target: WebsiteEntity, join: AssetWebsiteEntity, column: 'websiteId' },
  workstream_summary: {
    target: WorkstreamSummaryEntity,
    join: AssetWorkstreamSummaryEntity,
    column: 'workstreamSummaryId',
  },
};

/** The rows of an asset's first format, as a create writes them. */
export type NewFormat = Omit<FormatEntity, 'asset' | 'application'>;

/** One row of the activity batch (see RecordAssetActivityHandler), serialised as a JSON array. */
export type ActivityRow = string;

/**
 * Every write to the assets module's tables, inside the caller's transaction (commands run it
 * through AssetUnitOfWork). Tags and websites are one row per distinct text/URL, linked through
 * join rows, so both sides agree.
 */
@Injectable()
export class AssetWriter {
  constructor(private readonly db: Database) {}

  /** A new asset's row (the formats and links refer to it: write it first). */
  async insertAsset(
    em: EntityManager,
    row: Omit<AssetEntity, 'scoreReuse' | 'scoreUpdate' | 'scoreReference' | 'scorePriority' | 'scoreSearched'>,
  ): Promise<void> {
    await this.db.insert(em, AssetEntity, row);
  }

  async insertFormat(em: EntityManager, row: NewFormat): Promise<void> {
    await this.db.insert(em, FormatEntity, row);
  }

  /** The asset's own fields (name, mechanism, favorited, pseudo, updated). */
  async updateAsset(
    em: EntityManager,
    id: string,
    changes: Partial<Pick<AssetEntity, 'name' | 'mechanism' | 'favorited' | 'pseudo' | 'updatedAt'>>,
  ): Promise<void> {
    await em.update(AssetEntity, { id }, changes);
  }

  async updateFormat(
    em: EntityManager,
    id: string,
    patch: Partial<Pick<FormatEntity, 'raw' | 'bytes' | 'generic' | 'specific' | 'updatedAt'>>,
  ): Promise<void> {
    await em.update(FormatEntity, { id }, patch);
  }

  /**
   * The language a format's pending detection found, if nothing changed the format since it was
   * read (`updatedAt`): an explicit edit wins. True when it was written.
   */
  async labelPending(
    em: EntityManager,
    id: string,
    updatedAt: string,
    label: { generic: string; specific: string },
  ): Promise<boolean> {
    const result = await em.update(
      FormatEntity,
      { id, classificationPending: true, updatedAt },
      { ...label, classificationPending: false },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Empties a deleted asset and keeps its row as a tombstone (later reads answer 410). */
  async tombstone(em: EntityManager, id: string): Promise<void> {
    for (const entity of [
      FormatEntity,
      AnnotationEntity,
      AssetTagEntity,
      AssetWebsiteEntity,
      AssetWorkstreamSummaryEntity,
      ActivityEntity,
      SensitiveEntity,
    ]) {
      await em.delete(entity, { assetId: id });
    }
    const now = nowIso();
    await em.update(AssetEntity, { id }, { deletedAt: now, updatedAt: now, name: null, mechanism: 'DELETED' });
  }

  /**
   * Links (`link` true) or unlinks the asset and a tag / website / workstream summary, both
   * records' `updated` set; false when it already was so (nothing written). Concurrent identical
   * links: the second insert is a no-op, not a key violation.
   */
  async changeLink(
    em: EntityManager,
    kind: AssetLinkKind,
    assetId: string,
    targetId: string,
    link: boolean,
  ): Promise<boolean> {
    const spec = LINK_TABLES[kind];
    const where = { assetId, [spec.column]: targetId };
    if ((await em.exists(spec.join, { where })) === link) return false;
    const now = nowIso();
    if (link)
      await em
        .createQueryBuilder()
        .insert()
        .into(spec.join)
        .values({ ...where, createdAt: now })
        .orIgnore()
        .execute();
    else await em.delete(spec.join, where);
    await em.update(AssetEntity, { id: assetId }, { updatedAt: now });
    if (spec.target) await em.update(spec.target, { id: targetId }, { updatedAt: now });
    return true;
  }

  /**
   * A tag (by text) or website (by URL) unless one of that key exists: concurrent creates of one
   * key make one row (the caller then reads it by its key).
   */
  async insertLinkRecord(em: EntityManager, kind: 'tag' | 'website', row: TagEntity | WebsiteEntity): Promise<void> {
    await em
      .createQueryBuilder()
      .insert()
      .into(kind === 'tag' ? TagEntity : WebsiteEntity)
      .values(row)
      .orIgnore()
      .execute();
  }

  /** A tag's text and category, or a website's URL and name (`updated` set: asset reads see the new version). */
  async updateLinkRecord(
    em: EntityManager,
    kind: 'tag' | 'website',
    id: string,
    patch: Partial<TagEntity> | Partial<WebsiteEntity>,
  ): Promise<void> {
    await em.update(kind === 'tag' ? TagEntity : WebsiteEntity, { id }, { ...patch, updatedAt: nowIso() });
  }

  /** Deletes a tag or website with its links to assets (the assets are touched: their links changed). */
  async deleteLinkRecord(em: EntityManager, kind: 'tag' | 'website', id: string, assetIds: string[]): Promise<void> {
    if (kind === 'tag') await em.delete(AssetTagEntity, { tagId: id });
    else await em.delete(AssetWebsiteEntity, { websiteId: id });
    await em.delete(kind === 'tag' ? TagEntity : WebsiteEntity, { id });
    await this.touchAssets(em, assetIds);
  }

  /** Marks the assets updated (a record linked to them changed). */
  async touchAssets(em: EntityManager, ids: string[]): Promise<void> {
    const now = nowIso();
    for (const part of chunksOf(ids)) await em.update(AssetEntity, { id: In(part) }, { updatedAt: now });
  }

  /** Adds to the named counters in one relative UPDATE: concurrent increments add up instead of overwriting each other. */
  incrementScores(em: EntityManager, id: string, counters: Record<string, number>): Promise<void> {
    return incrementColumns(em, AssetEntity, id, counters);
  }

  /** What enrichment generated for a new asset. */
  async insertEnrichment(em: EntityManager, row: Omit<AssetEnrichmentEntity, 'asset'>): Promise<void> {
    await this.db.insert(em, AssetEnrichmentEntity, row);
  }

  /** What enrichment generated for an asset after a change of its content. */
  async saveEnrichment(em: EntityManager, row: Omit<AssetEnrichmentEntity, 'asset'>): Promise<void> {
    await em.upsert(AssetEnrichmentEntity, row, ['assetId']);
  }

  /** A secret found in an asset's text (AssetSecrets). */
  async insertSensitive(em: EntityManager, row: Omit<SensitiveEntity, 'asset'>): Promise<void> {
    await this.db.insert(em, SensitiveEntity, row);
  }

  /** A sensitive's place in its asset's text, after an edit moved it. */
  async moveSensitive(
    em: EntityManager,
    id: string,
    matchStart: number,
    matchEnd: number,
    updatedAt: string,
  ): Promise<void> {
    await em.update(SensitiveEntity, { id }, { matchStart, matchEnd, updatedAt });
  }

  /** Sensitives no longer in their asset's text. */
  async deleteSensitives(em: EntityManager, ids: string[]): Promise<void> {
    for (const part of chunksOf(ids)) await em.delete(SensitiveEntity, { id: In(part) });
  }

  /** Marks a sensitive dismissed (the user says it is no secret): it stays so while its value is in the asset. */
  async dismissSensitive(em: EntityManager, id: string): Promise<void> {
    const now = nowIso();
    await em.update(SensitiveEntity, { id }, { dismissedAt: now, updatedAt: now });
  }

  async updateAnnotationText(em: EntityManager, id: string, text: string): Promise<void> {
    await em.update(AnnotationEntity, { id }, { text, updatedAt: nowIso() });
  }

  /** One annotation of an asset (POST /annotations/create). */
  async insertAnnotation(em: EntityManager, row: Omit<AnnotationEntity, 'asset'>): Promise<void> {
    await this.db.insert(em, AnnotationEntity, row);
  }

  /** An annotation's type and text (POST /annotation/update). */
  async updateAnnotation(em: EntityManager, id: string, patch: Pick<AnnotationEntity, 'type' | 'text'>): Promise<void> {
    await em.update(AnnotationEntity, { id }, { ...patch, updatedAt: nowIso() });
  }

  async deleteAnnotation(em: EntityManager, id: string): Promise<void> {
    await em.delete(AnnotationEntity, { id });
  }

  /** One activity a client reported (POST /activities/create); `assetId` null for one about no asset. */
  async insertActivity(em: EntityManager, row: Omit<ActivityEntity, 'asset' | 'application'>): Promise<void> {
    await this.db.insert(em, ActivityEntity, row);
  }

  async deleteActivity(em: EntityManager, id: string): Promise<boolean> {
    const result = await em.delete(ActivityEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * A batch of activities, the rows passed as one JSON parameter (one fixed statement: it runs on
   * the one SQLite writer, so it must be short); the join drops the activities of assets deleted
   * meanwhile, the rows driving it (SQLite would otherwise walk every live asset by
   * assets_listing: 25 ms at 100,000 assets). `self`: the application of rows that name none.
   */
  async insertActivities(em: EntityManager, rows: ActivityRow[], self: string): Promise<void> {
    await this.db.query(
      em,
      `INSERT INTO activities (id, asset_id, application_id, event, mechanism, metadata, created_at)
       SELECT value->>0, value->>1, COALESCE(value->>2, ${this.db.param(2)}), value->>3, value->>4, value->>5, value->>6
         FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} assets a ON a.id = value->>1 WHERE a.deleted_at IS NULL`,
      [`[${rows.join(',')}]`, self],
    );
  }

  /** Makes the asset's tags exactly `inputs` (by text). */
  async setTags(em: EntityManager, assetId: string, inputs: TagInput[], options: LinkOptions = {}): Promise<void> {
    const values = inputs.map((input) => [
      normaliseTag(input.text),
      input.category ?? 'UNKNOWN',
      input.mechanism ?? 'MANUAL',
    ]);
    await this.setLinks(em, assetId, TAGS, values, options);
  }

  /** Makes the asset's websites exactly `inputs` (by URL). */
  async setWebsites(
    em: EntityManager,
    assetId: string,
    inputs: WebsiteInput[],
    options: LinkOptions = {},
  ): Promise<void> {
    const values = inputs.map((input) => {
      const url = normaliseUrl(input.url);
      return [url, input.name?.trim() || new URL(url).hostname, input.mechanism ?? 'MANUAL'];
    });
    await this.setLinks(em, assetId, WEBSITES, values, options);
  }

  /**
   * Makes the asset's links of one kind exactly `values` ([key, column, column] each), in three
   * prepared statements whatever their number: records not there yet are created (an existing
   * one is kept as it is), links to others are removed, the missing links are added in the
   * given order (each link's time is taken in turn, and links are listed by time).
   */
  private async setLinks(
    em: EntityManager,
    assetId: string,
    kind: LinkKind,
    values: string[][],
    { created = false }: LinkOptions,
  ): Promise<void> {
    const rows = JSON.stringify(values.map(([key, ...columns]) => [randomUUID(), nowIso(), key, ...columns]));
    const elements = this.db.sql.jsonElements(1);
    const join = `${this.db.sql.drivingJoin} ${kind.records} r ON r.${kind.key} = value ->> 2`;
    // WHERE true: SQLite would otherwise read ON CONFLICT as a join's ON
    await this.db.query(
      em,
      `INSERT INTO ${kind.records} (id, ${kind.key}, ${kind.columns.join(', ')}, created_at, updated_at)
       SELECT value ->> 0, value ->> 2, value ->> 3, value ->> 4, value ->> 1, value ->> 1 FROM ${elements} WHERE true ON CONFLICT DO NOTHING`,
      [rows],
    );
    if (!created)
      await this.db.query(
        em,
        `DELETE FROM ${kind.links} WHERE asset_id = ${this.db.param(2)} AND ${kind.link} NOT IN (SELECT r.id FROM ${elements} ${join})`,
        [rows, assetId],
      );
    await this.db.query(
      em,
      `INSERT INTO ${kind.links} (asset_id, ${kind.link}, created_at) SELECT ${this.db.param(2)}, r.id, value ->> 1 FROM ${elements} ${join} WHERE true ON CONFLICT DO NOTHING`,
      [rows, assetId],
    );
  }

  /** Adds annotations, listed in the given order (each one's time is taken in turn). */
  async addAnnotations(em: EntityManager, assetId: string, inputs: AnnotationInput[]): Promise<void> {
    for (const input of inputs) {
      const now = nowIso();
      await this.db.insert(em, AnnotationEntity, {
        id: randomUUID(),
        assetId,
        type: input.type,
        text: input.text,
        mechanism: input.mechanism ?? 'MANUAL',
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  /** Makes the asset's annotations exactly `inputs`: known ids are updated, others added, the rest removed. */
  async setAnnotations(em: EntityManager, assetId: string, inputs: AnnotationInput[]): Promise<void> {
    const existing = await em.find(AnnotationEntity, { where: { assetId } });
    const byId = new Map(existing.map((a) => [a.id, a]));
    const kept = new Set<string>();
    const added: AnnotationInput[] = [];
    const now = nowIso();
    for (const input of inputs) {
      const current = input.id ? byId.get(input.id) : undefined;
      if (!current) {
        added.push(input);
        continue;
      }
      kept.add(current.id);
      if (current.text !== input.text || current.type !== input.type) {
        await em.update(AnnotationEntity, { id: current.id }, { text: input.text, type: input.type, updatedAt: now });
      }
    }
    const removed = existing.filter((a) => !kept.has(a.id)).map((a) => a.id);
    if (removed.length) await em.delete(AnnotationEntity, { id: In(removed) });
    await this.addAnnotations(em, assetId, added);
  }
}
