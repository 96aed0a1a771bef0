import { GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { ApplicationEntity } from '../system/application.entity';
import { AnnotationEntity } from './annotation.entity';
import { AssetEntity } from './asset.entity';
import { FormatEntity } from './format.entity';
import { TagEntity } from './tag.entity';
import { WebsiteEntity } from './website.entity';
import { WorkstreamSummaryEntity } from './workstream-summary.entity';
import { AssetAggregate } from './wire/asset.wire';

/** SQLite allows 32766 bound parameters; stay far below for IN (...) lists. */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

type Row = Record<string, unknown>;
type Entity<T> = new () => T;

/**
 * Builds an entity from a raw row using TypeORM's own column metadata (so a column added by a
 * migration needs no change here); `prefix` selects aliased columns. Booleans come back as
 * 0/1 from SQLite and are normalised.
 */
const columnsOf = new Map<Function, { property: string; name: string; boolean: boolean }[]>();

function hydrate<T extends object>(em: EntityManager, type: Entity<T>, row: Row, prefix = ''): T {
  let columns = columnsOf.get(type);
  if (!columns) {
    columns = em.connection.getMetadata(type).columns.map((c) => ({ property: c.propertyName, name: c.databaseName, boolean: c.type === 'boolean' }));
    columnsOf.set(type, columns);
  }
  const entity = new type() as Record<string, unknown>;
  for (const column of columns) {
    const value = row[prefix + column.name];
    entity[column.property] = column.boolean && value !== null && value !== undefined ? Boolean(value) : value;
  }
  return entity as T;
}

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
  const columns = (type: Entity<object>, alias: string) =>
    em.connection
      .getMetadata(type)
      .columns.map((c) => `'${c.databaseName}', ${alias}.${c.databaseName}`)
      .join(', ');
  const object = (pairs: string) => (pg ? `json_build_object(${pairs})` : `json_object(${pairs})`);
  // rows of (obj, k1, k2) -> a JSON array of obj ordered by k1, k2
  const array = (rows: string) =>
    pg
      ? `(SELECT coalesce(json_agg(obj ORDER BY k1, k2), '[]'::json) FROM (${rows}) s)`
      : `(SELECT json_group_array(json(obj)) FROM (${rows} ORDER BY k1, k2))`;
  const link = (kind: string, pairs: string) => object(`'kind', '${kind}', ${pairs}`);
  const formats = array(
    `SELECT ${object(`${columns(FormatEntity, 'f')}, 'application', ${object(columns(ApplicationEntity, 'ap'))}`)} AS obj,
            f.position AS k1, f.id AS k2
       FROM formats f JOIN applications ap ON ap.id = f.application_id WHERE f.asset_id = a.id`,
  );
  const links = array(
    `SELECT ${link('annotation', columns(AnnotationEntity, 'x'))} AS obj, x.created_at AS k1, x.id AS k2
       FROM annotations x WHERE x.asset_id = a.id
     UNION ALL
     SELECT ${link('tag', columns(TagEntity, 't'))}, l.created_at, t.id
       FROM asset_tags l JOIN tags t ON t.id = l.tag_id WHERE l.asset_id = a.id
     UNION ALL
     SELECT ${link('website', columns(WebsiteEntity, 'w'))}, l.created_at, w.id
       FROM asset_websites l JOIN websites w ON w.id = l.website_id WHERE l.asset_id = a.id
     UNION ALL
     SELECT ${link('summary', columns(WorkstreamSummaryEntity, 's'))}, l.created_at, s.id
       FROM asset_workstream_summaries l JOIN workstream_summaries s ON s.id = l.workstream_summary_id WHERE l.asset_id = a.id`,
  );
  return `SELECT ${object(columns(AssetEntity, 'a'))} AS asset_json, ${formats} AS formats_json, ${links} AS links_json FROM assets a WHERE ${where}`;
}

/** A JSON column: text on SQLite, already parsed by the driver on PostgreSQL. */
const parsed = <T>(value: unknown, empty: T): T => (typeof value === 'string' ? JSON.parse(value) : ((value as T) ?? empty));

/** The asset of one row of aggregateSql (deleted ones included). */
function assetOf(em: EntityManager, row: Row): AssetEntity {
  return hydrate(em, AssetEntity, parsed<Row>(row.asset_json, {}));
}

/** An AssetAggregate from one row of aggregateSql and its asset (assetOf). */
function aggregateOf(em: EntityManager, row: Row, asset: AssetEntity): AssetAggregate {
  const aggregate: AssetAggregate = {
    asset,
    formats: parsed<Row[]>(row.formats_json, []).map((f) => {
      const format = hydrate(em, FormatEntity, f);
      format.application = hydrate(em, ApplicationEntity, f.application as Row);
      return format;
    }),
    annotations: [],
    tags: [],
    websites: [],
    summaries: [],
  };
  for (const link of parsed<Row[]>(row.links_json, [])) {
    if (link.kind === 'annotation') aggregate.annotations.push(hydrate(em, AnnotationEntity, link));
    else if (link.kind === 'tag') aggregate.tags.push(hydrate(em, TagEntity, link));
    else if (link.kind === 'website') aggregate.websites.push(hydrate(em, WebsiteEntity, link));
    else aggregate.summaries.push(hydrate(em, WorkstreamSummaryEntity, link));
  }
  return aggregate;
}

/** Loads assets with their formats, annotations, tags and websites: a fixed number of queries per batch. */
@Injectable()
export class AssetReader {
  constructor(private readonly db: Database) {}

  /** The live asset, or 404 (never existed) / 410 (deleted). */
  async require(em: EntityManager, id: string): Promise<AssetEntity> {
    const [row] = await this.db.query(em, `SELECT * FROM assets WHERE id = ${this.db.param(1)}`, [id]);
    const asset = row ? hydrate(em, AssetEntity, row) : null;
    if (!asset) throw new NotFoundException(`asset ${id} not found`);
    if (asset.deletedAt) throw new GoneException(`asset ${id} no longer exists`);
    return asset;
  }

  /** The live asset with everything its wire form shows, in one statement; 404 / 410 otherwise. */
  async one(em: EntityManager, id: string): Promise<AssetAggregate> {
    const [row] = await this.rows(em, id);
    if (!row) throw new NotFoundException(`asset ${id} not found`);
    const asset = assetOf(em, row);
    if (asset.deletedAt) throw new GoneException(`asset ${id} no longer exists`);
    return aggregateOf(em, row, asset);
  }

  /** As `one`, but null for an unknown or deleted asset. */
  async live(em: EntityManager, id: string): Promise<AssetAggregate | null> {
    const [row] = await this.rows(em, id);
    const asset = row ? assetOf(em, row) : null;
    return asset && !asset.deletedAt ? aggregateOf(em, row, asset) : null;
  }

  private rows(em: EntityManager, id: string): Promise<Row[]> {
    return this.db.query(em, aggregateSql(em, `a.id = ${this.db.param(1)}`), [id]);
  }

  /** Live assets, most recent first. */
  async list(em: EntityManager, options: { pseudo?: boolean } = {}): Promise<AssetEntity[]> {
    const rows = await this.db.query(
      em,
      `SELECT * FROM assets WHERE deleted_at IS NULL${options.pseudo ? '' : ' AND pseudo = FALSE'} ORDER BY created_at DESC, id DESC`,
    );
    return rows.map((row) => hydrate(em, AssetEntity, row));
  }

  /** Aggregates of the given assets, in the given order: one statement per 500 assets. */
  async aggregates(em: EntityManager, assets: AssetEntity[]): Promise<AssetAggregate[]> {
    const byId = new Map<string, AssetAggregate>();
    for (const ids of chunks(assets.map((a) => a.id))) {
      const rows = await this.db.query(em, aggregateSql(em, `a.id IN (${this.db.params(ids.length)})`), ids);
      for (const row of rows) {
        const asset = assetOf(em, row);
        byId.set(asset.id, aggregateOf(em, row, asset));
      }
    }
    return assets.map((asset) => byId.get(asset.id)).filter((a): a is AssetAggregate => a !== undefined);
  }
}
