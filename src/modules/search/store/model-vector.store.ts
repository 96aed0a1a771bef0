import { EntityManager } from 'typeorm';
import { Database } from '../../../common/database/database.service';

/** The kinds of record the model vector index holds: snippets (assets) and memories (workstream summaries). */
export type VectorKind = 'asset' | 'memory';

export interface ModelVectorRow {
  id: string;
  hash: string;
  vector: Float32Array;
  /** When it was written (ISO-8601). */
  updated: string;
}

interface Row {
  record_id: string;
  content_hash: string;
  vector?: Buffer;
  updated_at?: string;
}

/** A vector as stored: little-endian Float32, 4 bytes a dimension. */
export function vectorBytes(vector: ArrayLike<number>): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i], i * 4);
  return out;
}

function vectorOf(bytes: Buffer): Float32Array {
  const out = new Float32Array(bytes.length >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * `search_model_vectors`, the same SQL on both dialects: a record's vector in one embedding model,
 * with the hash of the text it was computed from (ModelVectorIndex).
 */
export class ModelVectorStore {
  constructor(private readonly db: Database) {}

  /** Up to `limit` rows of one kind and model after record id `after`, in id order, with their vectors when `vectors`. */
  async page(
    em: EntityManager,
    kind: VectorKind,
    model: string,
    after: string,
    limit: number,
    vectors: boolean,
  ): Promise<ModelVectorRow[]> {
    const p = (i: number) => this.db.param(i);
    const rows = await this.db.query<Row>(
      em,
      `SELECT record_id, content_hash, updated_at${vectors ? ', vector' : ''} FROM search_model_vectors
        WHERE model = ${p(1)} AND kind = ${p(2)} AND record_id > ${p(3)} ORDER BY record_id LIMIT ${p(4)}`,
      [model, kind, after, limit],
    );
    return rows.map((r) => ({
      id: r.record_id,
      hash: r.content_hash,
      vector: r.vector ? vectorOf(r.vector) : new Float32Array(0),
      updated: r.updated_at ?? '',
    }));
  }

  /** Up to `limit` rows of one kind and model written at or after `since` (ISO-8601), with their vectors, oldest first. */
  async writtenSince(
    em: EntityManager,
    kind: VectorKind,
    model: string,
    since: string,
    limit: number,
  ): Promise<ModelVectorRow[]> {
    const p = (i: number) => this.db.param(i);
    const rows = await this.db.query<Row>(
      em,
      `SELECT record_id, content_hash, vector, updated_at FROM search_model_vectors
        WHERE model = ${p(1)} AND kind = ${p(2)} AND updated_at >= ${p(3)} ORDER BY updated_at, record_id LIMIT ${p(4)}`,
      [model, kind, since, limit],
    );
    return rows.map((r) => ({
      id: r.record_id,
      hash: r.content_hash,
      vector: vectorOf(r.vector!),
      updated: r.updated_at ?? '',
    }));
  }

  /** The content hashes stored for these records in the model, by record id. */
  async hashes(em: EntityManager, kind: VectorKind, model: string, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.query<Row>(
      em,
      `SELECT v.record_id AS record_id, v.content_hash AS content_hash FROM ${this.db.sql.jsonElements(3)} ${this.db.sql.drivingJoin} search_model_vectors v
          ON v.model = ${this.db.param(1)} AND v.kind = ${this.db.param(2)} AND v.record_id = value ->> 0`,
      [model, kind, JSON.stringify(ids.map((id) => [id]))],
    );
    return new Map(rows.map((r) => [r.record_id, r.content_hash]));
  }

  /** Writes these records' vectors in the model, replacing what they had, within `em`'s transaction. */
  async write(
    em: EntityManager,
    kind: VectorKind,
    model: string,
    rows: Array<{ id: string; hash: string; vector: ArrayLike<number> }>,
  ): Promise<void> {
    if (!rows.length) return;
    const now = new Date().toISOString();
    const params: unknown[] = [];
    const values = rows.map((r) => {
      params.push(kind, r.id, model, r.hash, vectorBytes(r.vector), now);
      return `(${this.db.params(6, params.length - 5)})`;
    });
    await this.db.query(
      em,
      `INSERT INTO search_model_vectors (kind, record_id, model, content_hash, vector, updated_at) VALUES ${values.join(', ')}
       ON CONFLICT (kind, record_id, model) DO UPDATE SET content_hash = excluded.content_hash, vector = excluded.vector, updated_at = excluded.updated_at`,
      params,
    );
  }

  /** Removes these records' vectors in every model, within `em`'s transaction. */
  async remove(em: EntityManager, kind: VectorKind, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db.query(
      em,
      `DELETE FROM search_model_vectors WHERE kind = ${this.db.param(1)} AND record_id IN (SELECT value ->> 0 FROM ${this.db.sql.jsonElements(2)})`,
      [kind, JSON.stringify(ids.map((id) => [id]))],
    );
  }
}
