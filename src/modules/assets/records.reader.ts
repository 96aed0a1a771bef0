import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import { Database } from '../../common/database/database.service';
import { hydrate } from '../../common/database/entity-rows';
import { KeysetSource, keysetWalk } from '../../common/database/keyset';
import { NotFound } from '../../common/errors/domain-errors';
import { ActivityEntity } from './activity.entity';
import { AnnotationEntity } from './annotation.entity';
import { TagEntity } from './tag.entity';
import { WebsiteEntity } from './website.entity';

/** The two kinds of records an asset is linked to by a unique key (a tag's text, a website's URL). */
export type LinkRecordKind = 'tag' | 'website';

/** What differs between the two kinds: their tables and key column. */
export const LINK_RECORDS = {
  tag: { entity: TagEntity, table: 'tags', links: 'asset_tags', link: 'tag_id', key: 'text', label: 'tag' },
  website: {
    entity: WebsiteEntity,
    table: 'websites',
    links: 'asset_websites',
    link: 'website_id',
    key: 'url',
    label: 'website',
  },
} as const;

export type LinkRecord<K extends LinkRecordKind> = K extends 'tag' ? TagEntity : WebsiteEntity;

/** Records per page of a records listing (a tag or a website is ~200 bytes of JSON with its asset ids). */
const PAGE = 200;

/**
 * Reads of the records the assets module keeps besides assets, each as a record of its own:
 * tags and websites (with the live assets linked to them), annotations of assets, activities.
 * Asset reads carry them too (AssetReader); this reads them by their own ids.
 */
@Injectable()
export class RecordsReader {
  constructor(private readonly db: Database) {}

  /** A tag or a website by id, or 404. */
  async require<K extends LinkRecordKind>(em: EntityManager, kind: K, id: string): Promise<LinkRecord<K>> {
    const spec = LINK_RECORDS[kind];
    const [row] = await this.db.query(em, `SELECT * FROM ${spec.table} WHERE id = ${this.db.param(1)}`, [id]);
    if (!row) throw new NotFound(`${spec.label} ${id} not found`);
    return hydrate(em, spec.entity as new () => LinkRecord<K>, row);
  }

  /** The tag of a text or the website of a URL (as stored: normalised), or null. */
  async byKey<K extends LinkRecordKind>(em: EntityManager, kind: K, key: string): Promise<LinkRecord<K> | null> {
    const spec = LINK_RECORDS[kind];
    const [row] = await this.db.query(em, `SELECT * FROM ${spec.table} WHERE ${spec.key} = ${this.db.param(1)}`, [key]);
    return row ? hydrate(em, spec.entity as new () => LinkRecord<K>, row) : null;
  }

  /** The records of `ids` that exist, in no particular order. */
  async byIds<K extends LinkRecordKind>(em: EntityManager, kind: K, ids: string[]): Promise<LinkRecord<K>[]> {
    const spec = LINK_RECORDS[kind];
    const out: LinkRecord<K>[] = [];
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.db.query(
        em,
        `SELECT * FROM ${spec.table} WHERE id IN (${this.db.params(part.length)})`,
        part,
      );
      for (const row of rows) out.push(hydrate(em, spec.entity as new () => LinkRecord<K>, row));
    }
    return out;
  }

  /** Ids of the live assets linked to each of the records, in link order. */
  async linkedAssets(em: EntityManager, kind: LinkRecordKind, ids: string[]): Promise<Map<string, string[]>> {
    const spec = LINK_RECORDS[kind];
    const out = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.db.query<{ record: string; asset: string }>(
        em,
        `SELECT l.${spec.link} AS record, l.asset_id AS asset FROM ${spec.links} l JOIN assets a ON a.id = l.asset_id
          WHERE l.${spec.link} IN (${this.db.params(part.length)}) AND a.deleted_at IS NULL ORDER BY l.created_at, l.asset_id`,
        part,
      );
      for (const row of rows) out.get(row.record)?.push(row.asset);
    }
    return out;
  }

  /** Every tag or website, most recent first, a page at a time (see keysetWalk). */
  async *walk<K extends LinkRecordKind>(kind: K): AsyncGenerator<LinkRecord<K>[]> {
    const source: KeysetSource = { table: LINK_RECORDS[kind].table, where: '1 = 1' };
    for await (const rows of keysetWalk(this.db, source, PAGE)) {
      const records = await this.db.read((em) =>
        this.byIds(
          em,
          kind,
          rows.map((r) => r.id),
        ),
      );
      const byId = new Map(records.map((r) => [r.id, r]));
      yield rows.map((r) => byId.get(r.id)).filter((r): r is LinkRecord<K> => r !== undefined);
    }
  }

  /**
   * Tags whose text (or websites whose URL or name) contains one of `words`, case aside, at most
   * `limit`, the ones containing most words first. The words are bound parameters of LIKE
   * patterns, their `%`, `_` and `\` escaped.
   */
  async matching<K extends LinkRecordKind>(
    em: EntityManager,
    kind: K,
    words: string[],
    limit: number,
  ): Promise<LinkRecord<K>[]> {
    if (words.length === 0) return [];
    const spec = LINK_RECORDS[kind];
    const fields = kind === 'tag' ? ['text'] : ['url', 'name'];
    const patterns = words.map((w) => `%${w.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const hit = (n: number) =>
      `(${fields.map((f) => `LOWER(${f}) LIKE ${this.db.param(n)} ESCAPE '\\'`).join(' OR ')})`;
    const score = patterns.map((_, i) => `CASE WHEN ${hit(i + 1)} THEN 1 ELSE 0 END`).join(' + ');
    const rows = await this.db.query(
      em,
      `SELECT * FROM ${spec.table} WHERE ${patterns.map((_, i) => hit(i + 1)).join(' OR ')} ORDER BY ${score} DESC, created_at DESC, id DESC LIMIT ${Math.floor(limit)}`,
      patterns,
    );
    return rows.map((row) => hydrate(em, spec.entity as new () => LinkRecord<K>, row));
  }

  /** An annotation of a live asset, or 404. */
  async annotation(em: EntityManager, id: string): Promise<AnnotationEntity> {
    const [row] = await this.db.query(
      em,
      `SELECT n.* FROM annotations n JOIN assets a ON a.id = n.asset_id WHERE n.id = ${this.db.param(1)} AND a.deleted_at IS NULL`,
      [id],
    );
    if (!row) throw new NotFound(`annotation ${id} not found`);
    return hydrate(em, AnnotationEntity, row);
  }

  /** Annotations of live assets, most recent first, a page at a time. */
  async *walkAnnotations(): AsyncGenerator<AnnotationEntity[]> {
    const source: KeysetSource = {
      table: 'annotations',
      where: 'asset_id IN (SELECT id FROM assets WHERE deleted_at IS NULL)',
    };
    for await (const rows of keysetWalk(this.db, source, PAGE)) {
      const found = await this.db.read((em) => em.find(AnnotationEntity, { where: { id: In(rows.map((r) => r.id)) } }));
      const byId = new Map(found.map((a) => [a.id, a]));
      yield rows.map((r) => byId.get(r.id)).filter((a): a is AnnotationEntity => a !== undefined);
    }
  }

  /** An activity, or 404 (its application by id: see ApplicationRegistry). */
  async activity(em: EntityManager, id: string): Promise<ActivityEntity> {
    const activity = await em.findOne(ActivityEntity, { where: { id } });
    if (!activity) throw new NotFound(`activity ${id} not found`);
    return activity;
  }

  /** Every activity (of live assets, and of none), most recent first, a page at a time. */
  async *walkActivities(pageSize = PAGE): AsyncGenerator<ActivityEntity[]> {
    for await (const rows of keysetWalk(this.db, RecordsReader.ACTIVITIES, pageSize)) {
      const found = await this.db.read((em) => em.find(ActivityEntity, { where: { id: In(rows.map((r) => r.id)) } }));
      const byId = new Map(found.map((a) => [a.id, a]));
      yield rows.map((r) => byId.get(r.id)).filter((a): a is ActivityEntity => a !== undefined);
    }
  }

  /** The activities the listings walk (those of deleted assets go with them). */
  static readonly ACTIVITIES: KeysetSource = { table: 'activities', where: '1 = 1' };
}
