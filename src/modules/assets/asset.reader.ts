import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import {
  KeyedRow,
  Keyset,
  KeysetSource,
  keysetPage,
  keysetSlice,
  keysetWalk,
  keysetWalkIds,
} from '../../common/database/keyset';
import { Database } from '../../common/database/database.service';
import { hydrate, jsonColumns } from '../../common/database/entity-rows';
import { Gone, NotFound } from '../../common/errors/domain-errors';
import { ApplicationReader } from '../system/application.reader';
import { ActivityEntity } from './activity.entity';
import { AnnotationEntity } from './annotation.entity';
import { AssetEnrichmentEntity } from './asset-enrichment.entity';
import { AssetEntity } from './asset.entity';
import { AssetLinkKind } from './asset.writer';
import { FormatEntity } from './format.entity';
import { TagEntity } from './tag.entity';
import { SensitiveEntity } from './sensitive.entity';
import { WebsiteEntity } from './website.entity';
import { WorkstreamSummaryEntity } from './workstream-summary.entity';
import { AssetAggregate } from './wire/asset.wire';

type Row = Record<string, unknown>;
type Entity<T> = new () => T;

/**
 * The one statement that reads whole assets: each asset as a JSON object, with its formats
 * (and their applications) and its links (annotations, tags, websites, workstream summaries)
 * as JSON arrays. One statement instead of six matters on SQLite, where the driver stalls the
 * event loop briefly on every statement; and three JSON columns instead of the asset's ~20
 * cost less to hand over than a property per column (sqlite3 sets each through N-API).
 * Column lists come from the entities' metadata.
 */
const aggregateSqlCache = new Map<string, string>();
function aggregateSql(em: EntityManager, where: string): string {
  const key = `${em.connection.options.type} ${where}`;
  let sql = aggregateSqlCache.get(key);
  if (!sql) aggregateSqlCache.set(key, (sql = buildAggregateSql(em, where)));
  return sql;
}

function buildAggregateSql(em: EntityManager, where: string): string {
  const pg = em.connection.options.type === 'postgres';
  const columns = (type: Entity<object>, alias: string) => jsonColumns(em, type, alias);
  const object = (pairs: string) => (pg ? `json_build_object(${pairs})` : `json_object(${pairs})`);
  // rows of (obj, k1, k2) -> a JSON array of obj ordered by k1, k2
  const array = (rows: string) =>
    pg
      ? `(SELECT coalesce(json_agg(obj ORDER BY k1, k2), '[]'::json) FROM (${rows}) s)`
      : `(SELECT json_group_array(json(obj)) FROM (${rows} ORDER BY k1, k2))`;
  const link = (kind: string, pairs: string) => object(`'kind', '${kind}', ${pairs}`);
  // Each format's application, as the system module shows it (its fragment: the read stays one statement).
  const application = ApplicationReader.joinedJson(em, 'ap', 'f.application_id');
  const formats = array(
    `SELECT ${object(`${columns(FormatEntity, 'f')}, 'application', ${object(application.pairs)}`)} AS obj,
            f.position AS k1, f.id AS k2
       FROM formats f ${application.join} WHERE f.asset_id = a.id`,
  );
  const links = array(
    `SELECT ${link('annotation', columns(AnnotationEntity, 'x'))} AS obj, x.created_at AS k1, x.id AS k2
       FROM annotations x WHERE x.asset_id = a.id
     UNION ALL
     SELECT ${link('website', columns(WebsiteEntity, 'w'))}, l.created_at, w.id
       FROM asset_websites l JOIN websites w ON w.id = l.website_id WHERE l.asset_id = a.id
     UNION ALL
     SELECT ${link('summary', SUMMARY_COLUMNS)}, l.created_at, s.id
       FROM asset_workstream_summaries l JOIN workstream_summaries s ON s.id = l.workstream_summary_id WHERE l.asset_id = a.id AND s.deleted_at IS NULL
     UNION ALL
     SELECT ${link('sensitive', columns(SensitiveEntity, 'z'))}, z.created_at, z.id
       FROM sensitives z WHERE z.asset_id = a.id AND z.dismissed_at IS NULL`,
  );
  // Tags by id and version (`updated_at`), in link order (the asset_tags_order index covers the
  // order; each tag is one primary-key lookup): the records are shared, so AssetReader keeps them
  // in memory (TagRecords) and reads a tag again only when its version changed.
  const tags = pg
    ? `(SELECT coalesce(json_agg(json_build_array(l.tag_id, t.updated_at) ORDER BY l.created_at, l.tag_id), '[]'::json) FROM asset_tags l JOIN tags t ON t.id = l.tag_id WHERE l.asset_id = a.id)`
    : `(SELECT json_group_array(json_array(tag_id, updated_at)) FROM (SELECT l.tag_id, t.updated_at FROM asset_tags l JOIN tags t ON t.id = l.tag_id WHERE l.asset_id = a.id ORDER BY l.created_at, l.tag_id))`;
  return `SELECT ${object(columns(AssetEntity, 'a'))} AS asset_json, ${formats} AS formats_json, ${links} AS links_json, ${tags} AS tags_json FROM assets a WHERE ${where}`;
}

/** A JSON column: text on SQLite, already parsed by the driver on PostgreSQL. */
const parsed = <T>(value: unknown, empty: T): T =>
  typeof value === 'string' ? JSON.parse(value) : ((value as T) ?? empty);

/**
 * What an asset shows of each summary linked to it (a reference: summaryReferenceWire), not the
 * summary's text, which may be long and is one read away. Links to a deleted summary go with its
 * deletion (WorkstreamSummaryWriter.tombstone); `deleted_at IS NULL` keeps one linked meanwhile out.
 */
const SUMMARY_COLUMNS = `'id', s.id, 'name', s.name, 'created_at', s.created_at, 'updated_at', s.updated_at`;

/** The asset of one row of aggregateSql (deleted ones included). */
function assetOf(em: EntityManager, row: Row): AssetEntity {
  return hydrate(em, AssetEntity, parsed<Row>(row.asset_json, {}));
}

/**
 * Tag records by id, kept in memory: a tag is shared by every asset it is linked to and seldom
 * changes (POST /tag/update), so asset reads carry each tag's id and version (`updated_at`) only,
 * and the records of ids not seen yet, or seen at another version, are read in one statement (and
 * kept). A version check per read keeps every instance's copy right after a change made by
 * another. A tag read inside a transaction that then rolls back stays here unreferenced.
 */
const MAX_TAGS_KEPT = 100_000;

/** One tag of an asset row's `tags_json`: its id and version. */
type TagRef = [id: string, updatedAt: string];

class TagRecords {
  private readonly byId = new Map<string, TagEntity>();

  constructor(private readonly db: Database) {}

  /**
   * The records of the tags in `rows`' `tags_json` columns: those in memory at the version the
   * rows name, and the others read now in one statement (and kept). The answer holds every one
   * these rows need, whatever another read evicts meanwhile.
   */
  async load(em: EntityManager, rows: Row[]): Promise<RowTags> {
    const found = new Map<string, TagEntity>();
    const missing = new Set<string>();
    for (const row of rows) {
      const refs = parsed<TagRef[]>(row.tags_json, []);
      row.tags_json = refs; // parsed once
      for (const [id, updatedAt] of refs) {
        const tag = this.byId.get(id);
        if (tag && tag.updatedAt === updatedAt) found.set(id, tag);
        else missing.add(id);
      }
    }
    if (missing.size === 0) return found;
    if (this.byId.size + missing.size > MAX_TAGS_KEPT) this.byId.clear();
    for (const ids of chunks([...missing])) {
      const records = await this.db.query(em, `SELECT * FROM tags WHERE id IN (${this.db.params(ids.length)})`, ids);
      for (const record of records) {
        const tag = hydrate(em, TagEntity, record);
        this.byId.set(tag.id, tag);
        found.set(tag.id, tag);
      }
    }
    return found;
  }
}

/** Tag records by id, for the rows they were loaded for (TagRecords.load). */
type RowTags = Map<string, TagEntity>;

/** The tags of one row, in link order. */
function tagsOf(row: Row, tags: RowTags): TagEntity[] {
  return parsed<TagRef[]>(row.tags_json, [])
    .map(([id]) => tags.get(id))
    .filter((tag): tag is TagEntity => tag !== undefined);
}

/** An AssetAggregate from one row of aggregateSql and its asset (assetOf), its tags from `tags` (loaded). */
function aggregateOf(em: EntityManager, row: Row, asset: AssetEntity, tags: RowTags): AssetAggregate {
  const aggregate: AssetAggregate = {
    asset,
    formats: parsed<Row[]>(row.formats_json, []).map((f) => {
      const format = hydrate(em, FormatEntity, f);
      format.application = ApplicationReader.fromJson(em, f.application as Row);
      return format;
    }),
    annotations: [],
    tags: tagsOf(row, tags),
    websites: [],
    summaries: [],
    sensitives: [],
  };
  for (const link of parsed<Row[]>(row.links_json, [])) {
    if (link.kind === 'annotation') aggregate.annotations.push(hydrate(em, AnnotationEntity, link));
    else if (link.kind === 'website') aggregate.websites.push(hydrate(em, WebsiteEntity, link));
    else if (link.kind === 'sensitive') aggregate.sensitives.push(hydrate(em, SensitiveEntity, link));
    else aggregate.summaries.push(hydrate(em, WorkstreamSummaryEntity, link));
  }
  if (aggregate.sensitives.length > 1) aggregate.sensitives.sort((x, y) => x.matchStart - y.matchStart);
  return aggregate;
}

/** Loads assets with their formats, annotations, tags and websites: a fixed number of queries per batch. */
@Injectable()
export class AssetReader {
  private readonly tags: TagRecords;

  constructor(private readonly db: Database) {
    this.tags = new TagRecords(db);
  }

  /** The live asset, or 404 (never existed) / 410 (deleted). */
  async require(em: EntityManager, id: string): Promise<AssetEntity> {
    const [row] = await this.db.query(em, `SELECT * FROM assets WHERE id = ${this.db.param(1)}`, [id]);
    const asset = row ? hydrate(em, AssetEntity, row) : null;
    if (!asset) throw new NotFound(`asset ${id} not found`);
    if (asset.deletedAt) throw new Gone(`asset ${id} no longer exists`);
    return asset;
  }

  /** An annotation of a live asset, or null (unknown, or its asset deleted). */
  async annotation(em: EntityManager, id: string): Promise<AnnotationEntity | null> {
    const [row] = await this.db.query(
      em,
      `SELECT n.* FROM annotations n JOIN assets a ON a.id = n.asset_id WHERE n.id = ${this.db.param(1)} AND a.deleted_at IS NULL`,
      [id],
    );
    return row ? hydrate(em, AnnotationEntity, row) : null;
  }

  /** The asset a format belongs to; 404 for an unknown format. */
  async formatOwner(em: EntityManager, formatId: string): Promise<string> {
    const [row] = await this.db.query<{ asset_id: string }>(
      em,
      `SELECT asset_id FROM formats WHERE id = ${this.db.param(1)}`,
      [formatId],
    );
    if (!row) throw new NotFound(`format ${formatId} not found`);
    return row.asset_id;
  }

  /** The live asset with everything its wire form shows, in one statement; 404 / 410 otherwise. */
  async one(em: EntityManager, id: string): Promise<AssetAggregate> {
    const [row] = await this.rows(em, id);
    if (!row) throw new NotFound(`asset ${id} not found`);
    const asset = assetOf(em, row);
    if (asset.deletedAt) throw new Gone(`asset ${id} no longer exists`);
    return aggregateOf(em, row, asset, await this.tags.load(em, [row]));
  }

  /** As `one`, but null for an unknown or deleted asset. */
  async live(em: EntityManager, id: string): Promise<AssetAggregate | null> {
    const [row] = await this.rows(em, id);
    const asset = row ? assetOf(em, row) : null;
    if (!asset || asset.deletedAt) return null;
    return aggregateOf(em, row, asset, await this.tags.load(em, [row]));
  }

  private rows(em: EntityManager, id: string): Promise<Row[]> {
    return this.db.query(em, aggregateSql(em, `a.id = ${this.db.param(1)}`), [id]);
  }

  /** Whether the asset ever existed (deleted ones included). */
  async exists(em: EntityManager, id: string): Promise<boolean> {
    return em.exists(AssetEntity, { where: { id } });
  }

  /** The aggregates of the live ones among `ids`, in no particular order. */
  async liveAggregates(em: EntityManager, ids: string[]): Promise<AssetAggregate[]> {
    // Tombstones are left out here, not in SQL: with `deleted_at IS NULL` in the statement
    // SQLite may walk an index on deleted_at over every live asset instead of looking the ids up
    // by primary key (25 ms instead of 1 at 100,000 assets).
    return (await this.byIds(em, [...new Set(ids)])).filter((a) => !a.asset.deletedAt);
  }

  /**
   * Locks the rows of `ids` until `em`'s transaction ends, so that a change of one of them made
   * elsewhere (another instance) waits for it, and what it derives from them is not overwritten
   * by an older read. PostgreSQL only: SQLite's one writer runs transactions one at a time.
   */
  async lock(em: EntityManager, ids: string[]): Promise<void> {
    if (this.db.dialect === 'sqlite' || ids.length === 0) return;
    for (const part of chunks(ids))
      await this.db.query(
        em,
        `SELECT id FROM assets WHERE id IN (${this.db.params(part.length)}) ORDER BY id FOR UPDATE`,
        part,
      );
  }

  /** Of `ids`, those of pseudo assets (which the listings and streams leave out). */
  async pseudoAmong(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.db.query<{ id: string }>(
        em,
        `SELECT id FROM assets WHERE pseudo = TRUE AND id IN (${this.db.params(part.length)})`,
        part,
      );
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  /**
   * The name and the text and label of the first format of the live ones among `ids`, in no
   * particular order: what question answering quotes (less than whole aggregates).
   */
  async firstFormatTexts(
    em: EntityManager,
    ids: string[],
  ): Promise<
    Array<{
      id: string;
      name: string | null;
      raw: string;
      generic: string;
      specific: string;
      generated_name: string | null;
    }>
  > {
    if (ids.length === 0) return [];
    // generated_name: the name Trove gave it (asset_enrichments), which says nothing its text does not.
    const columns = `a.id AS id, a.name AS name, f.raw AS raw, f.generic AS generic, f.specific AS specific, (SELECT e.name FROM asset_enrichments e WHERE e.asset_id = a.id) AS generated_name`;
    const first = `f.asset_id = a.id AND f.position = (SELECT MIN(g.position) FROM formats g WHERE g.asset_id = a.id)`;
    // Driven by the id list (each id bound as a one-element array, as the writer's element joins are).
    const sql = `SELECT ${columns} FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} assets a ON a.id = value ->> 0 JOIN formats f ON ${first} WHERE a.deleted_at IS NULL`;
    return this.db.query(em, sql, [JSON.stringify(ids.map((id) => [id]))]);
  }

  /** An asset's formats, first first. */
  formats(em: EntityManager, assetId: string): Promise<FormatEntity[]> {
    return em.find(FormatEntity, { where: { assetId }, order: { position: 'ASC' } });
  }

  /** Formats still waiting for their language (oldest first); one of them by id (null once labelled or gone). */
  async pendingFormatIds(em: EntityManager): Promise<string[]> {
    return (
      await em.find(FormatEntity, {
        select: { id: true },
        where: { classificationPending: true },
        order: { createdAt: 'ASC' },
      })
    ).map((f) => f.id);
  }

  pendingFormat(em: EntityManager, id: string): Promise<FormatEntity | null> {
    return em.findOne(FormatEntity, { where: { id, classificationPending: true } });
  }

  /** Whether the tag / website / workstream summary exists. */
  linkTargetExists(em: EntityManager, kind: AssetLinkKind, id: string): Promise<boolean> {
    const target = kind === 'tag' ? TagEntity : kind === 'website' ? WebsiteEntity : WorkstreamSummaryEntity;
    return em.exists(target, { where: { id } });
  }

  /** Websites by id (for the records that link to them: conversations). */
  async websites(em: EntityManager, ids: string[]): Promise<WebsiteEntity[]> {
    const out: WebsiteEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      out.push(...(await em.find(WebsiteEntity, { where: { id: In(part) } })));
    return out;
  }

  /** What enrichment generated for the asset, if anything. */
  /** Every sensitive row of an asset, dismissed ones too (AssetSecrets reconciles them with the text). */
  sensitivesOf(em: EntityManager, assetId: string): Promise<SensitiveEntity[]> {
    return em.find(SensitiveEntity, { where: { assetId } });
  }

  /** Every sensitive not dismissed, oldest first, an asset's in text order. */
  liveSensitives(em: EntityManager): Promise<SensitiveEntity[]> {
    return em.find(SensitiveEntity, {
      where: { dismissedAt: IsNull() },
      order: { createdAt: 'ASC', assetId: 'ASC', matchStart: 'ASC', id: 'ASC' },
    });
  }

  /** One sensitive not dismissed, or null. */
  liveSensitive(em: EntityManager, id: string): Promise<SensitiveEntity | null> {
    return em.findOne(SensitiveEntity, { where: { id, dismissedAt: IsNull() } });
  }

  enrichmentOf(em: EntityManager, assetId: string): Promise<AssetEnrichmentEntity | null> {
    return em.findOne(AssetEnrichmentEntity, { where: { assetId } });
  }

  /** The asset's latest activities, most recent first (their applications by id: see ApplicationRegistry). */
  activities(em: EntityManager, assetId: string, limit: number): Promise<ActivityEntity[]> {
    return em.find(ActivityEntity, { where: { assetId }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** How many live assets there are (pseudo ones included). */
  async liveCount(em: EntityManager): Promise<number> {
    const [row] = await this.db.query<{ n: number | string }>(
      em,
      `SELECT COUNT(*) AS n FROM assets WHERE deleted_at IS NULL`,
    );
    return Number(row.n);
  }

  /** Ids of the `limit` most recent live assets (pseudo ones left out), as the listings order them. */
  async recentIds(em: EntityManager, limit: number): Promise<string[]> {
    return (await keysetPage(this.db, em, AssetReader.listing(false), null, limit)).map((row) => row.id);
  }

  /**
   * Assets per page of a listing walk: a page is what the server holds of a listing at a time
   * (its records, their JSON text and the garbage of making it), so a few dozen, not hundreds:
   * ~150 kB of JSON for typical snippets, a few MB for 20 kB ones.
   */
  static readonly PAGE = 32;

  /** Live assets (pseudo ones too when asked) as the listings walk them: see keysetWalk. */
  static listing(pseudo: boolean): KeysetSource {
    return { table: 'assets', where: pseudo ? 'deleted_at IS NULL' : 'deleted_at IS NULL AND pseudo = FALSE' };
  }

  /** Every live asset, most recent first, a page (PAGE) at a time, each page read in its own short reads. */
  async *walk(options: { pseudo: boolean }): AsyncGenerator<AssetAggregate[]> {
    for await (const rows of keysetWalk(this.db, AssetReader.listing(options.pseudo), AssetReader.PAGE)) {
      yield await this.db.read((em) => this.liveInOrder(em, rows));
    }
  }

  /** Ids of every live asset, most recent first, `pageSize` at a time (see keysetWalk). */
  async *walkIds(options: { pseudo: boolean; pageSize: number; only?: 'pseudo' }): AsyncGenerator<string[]> {
    const source =
      options.only === 'pseudo'
        ? { table: 'assets', where: 'deleted_at IS NULL AND pseudo = TRUE' }
        : AssetReader.listing(options.pseudo);
    yield* keysetWalkIds(this.db, source, options.pageSize);
  }

  /** One page of the listing after `after`: the aggregates and the page's last row when more follow (see keysetSlice). */
  async page(
    em: EntityManager,
    options: { pseudo: boolean; after: Keyset | null; limit: number },
  ): Promise<{ aggregates: AssetAggregate[]; last: KeyedRow | null }> {
    const { rows, last } = await keysetSlice(
      this.db,
      em,
      AssetReader.listing(options.pseudo),
      options.after,
      options.limit,
    );
    return { aggregates: await this.liveInOrder(em, rows), last };
  }

  /** The aggregates of the live ones among `rows`, in their order (one deleted since the rows were read is left out). */
  private async liveInOrder(em: EntityManager, rows: Array<{ id: string }>): Promise<AssetAggregate[]> {
    const byId = new Map(
      (
        await this.byIds(
          em,
          rows.map((r) => r.id),
        )
      ).map((a) => [a.asset.id, a]),
    );
    return rows
      .map((row) => byId.get(row.id))
      .filter((a): a is AssetAggregate => a !== undefined && !a.asset.deletedAt);
  }

  /** The aggregates of the existing assets among `ids` (tombstones included), in no particular order. */
  private async byIds(em: EntityManager, ids: string[]): Promise<AssetAggregate[]> {
    const out: AssetAggregate[] = [];
    for (const part of chunks(ids)) {
      const rows = await this.db.query(em, aggregateSql(em, `a.id IN (${this.db.params(part.length)})`), part);
      const tags = await this.tags.load(em, rows);
      for (const row of rows) out.push(aggregateOf(em, row, assetOf(em, row), tags));
    }
    return out;
  }
}
