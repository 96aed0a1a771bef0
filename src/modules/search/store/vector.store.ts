import { EntityManager } from 'typeorm';
import { Database } from '../../../common/database/database.service';

/** A stored vector: an asset's int8 vector in the offline code embedding, and its row's number. */
export interface StoredVector {
  doc: number;
  assetId: string;
  vector: Buffer;
}

interface Row {
  doc: number | string;
  asset_id: string;
  vector: Buffer;
}

const row = (r: Row): StoredVector => ({ doc: Number(r.doc), assetId: r.asset_id, vector: r.vector });

/**
 * `search_vectors`, the same SQL on both dialects (bound keys as a JSON array, as the asset reader
 * binds them). `doc` numbers the rows, never reused; a rewritten vector keeps its row.
 */
export class VectorStore {
  constructor(private readonly db: Database) {}

  /** Writes these assets' vectors, replacing what they had, within `em`'s transaction. */
  async write(em: EntityManager, rows: Array<{ assetId: string; vector: Buffer }>): Promise<void> {
    if (!rows.length) return;
    const params: unknown[] = [];
    const values = rows.map((r) => {
      params.push(r.assetId, r.vector);
      return `(${this.db.params(2, params.length - 1)})`;
    });
    await this.db.query(
      em,
      `INSERT INTO search_vectors (asset_id, vector) VALUES ${values.join(', ')} ON CONFLICT (asset_id) DO UPDATE SET vector = excluded.vector`,
      params,
    );
  }

  async remove(em: EntityManager, assetIds: string[]): Promise<void> {
    if (!assetIds.length) return;
    await this.db.query(
      em,
      `DELETE FROM search_vectors WHERE asset_id IN (SELECT value ->> 0 FROM ${this.db.sql.jsonElements(1)})`,
      [JSON.stringify(assetIds.map((id) => [id]))],
    );
  }

  /** The vectors of those of the assets that have one, in no particular order. */
  async ofAssets(em: EntityManager, assetIds: string[]): Promise<StoredVector[]> {
    if (!assetIds.length) return [];
    const rows = await this.db.query<Row>(
      em,
      `SELECT v.doc AS doc, v.asset_id AS asset_id, v.vector AS vector FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} search_vectors v ON v.asset_id = value ->> 0`,
      [JSON.stringify(assetIds.map((id) => [id]))],
    );
    return rows.map(row);
  }

  /** The rows of those of the numbers that still exist, in no particular order. */
  async ofDocs(em: EntityManager, docs: number[]): Promise<StoredVector[]> {
    if (!docs.length) return [];
    const rows = await this.db.query<Row>(
      em,
      `SELECT v.doc AS doc, v.asset_id AS asset_id, v.vector AS vector FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} search_vectors v ON v.doc = CAST(value ->> 0 AS bigint)`,
      [JSON.stringify(docs.map((doc) => [doc]))],
    );
    return rows.map(row);
  }

  /** Up to `limit` rows after row `after`, in row order (a keyset page of them all). */
  async page(em: EntityManager, after: number, limit: number): Promise<StoredVector[]> {
    const rows = await this.db.query<Row>(
      em,
      `SELECT doc, asset_id, vector FROM search_vectors WHERE doc > ${this.db.param(1)} ORDER BY doc LIMIT ${this.db.param(2)}`,
      [after, limit],
    );
    return rows.map(row);
  }
}
