import { EntityManager } from 'typeorm';
import { Database } from '../../../common/database/database.service';

/** A stored vector: an asset's int8 vector in the offline code embedding. */
export interface StoredVector {
  asset_id: string;
  vector: Buffer;
}

/** `search_vectors`, the same SQL on both dialects (bound ids as a JSON array, as the asset reader binds them). */
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
    await this.db.query(em, `DELETE FROM search_vectors WHERE asset_id IN (SELECT value ->> 0 FROM ${this.db.sql.jsonElements(1)})`, [
      JSON.stringify(assetIds.map((id) => [id])),
    ]);
  }

  /** The vectors of those of `assetIds` that have one, in no particular order. */
  some(em: EntityManager, assetIds: string[]): Promise<StoredVector[]> {
    if (!assetIds.length) return Promise.resolve([]);
    return this.db.query<StoredVector>(
      em,
      `SELECT v.asset_id AS asset_id, v.vector AS vector FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} search_vectors v ON v.asset_id = value ->> 0`,
      [JSON.stringify(assetIds.map((id) => [id]))],
    );
  }

  /** Up to `limit` vectors of the assets after `after` in id order (a keyset page of them all). */
  page(em: EntityManager, after: string, limit: number): Promise<StoredVector[]> {
    return this.db.query<StoredVector>(
      em,
      `SELECT asset_id, vector FROM search_vectors WHERE asset_id > ${this.db.param(1)} ORDER BY asset_id LIMIT ${this.db.param(2)}`,
      [after, limit],
    );
  }
}
