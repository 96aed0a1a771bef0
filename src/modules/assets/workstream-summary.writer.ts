import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import { Database } from '../../common/database/database.service';
import { memoryContentHash } from './memory-content-hash';
import { AssetWorkstreamSummaryEntity } from './workstream-summary.entity';
import type { MemoryRecord } from './workstream-summary.reader';

/** A new workstream summary, validated (CreateWorkstreamSummaryHandler). */
export type WorkstreamSummaryRow = Omit<MemoryRecord, 'created' | 'updated' | 'about'> & {
  createdAt: string;
  aboutAt: string;
};

/**
 * Writes workstream summaries and their links to assets. The full-text index follows the rows
 * by itself (SQLite: the triggers of `workstream_summaries_fts`; PostgreSQL: a generated column).
 */
@Injectable()
export class WorkstreamSummaryWriter {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the summary unless a live one with the same content (memoryContentHash; its time counts
   * when `aboutGiven`, the client gave it) exists, also
   * one a concurrent transaction is inserting (ON CONFLICT on the unique hash: PostgreSQL waits
   * for that transaction, SQLite runs one writer). Answers the id kept: `row.id`, or the other's.
   */
  async insert(
    em: EntityManager,
    row: WorkstreamSummaryRow,
    aboutGiven: boolean,
  ): Promise<{ id: string; inserted: boolean }> {
    const contentHash = memoryContentHash(row.text, row.source, aboutGiven ? row.aboutAt : null);
    const values: Record<string, unknown> = {
      id: row.id,
      name: row.name,
      description: row.description,
      text: row.text,
      project: row.project,
      files: JSON.stringify(row.files),
      links: JSON.stringify(row.links),
      source: row.source,
      created_at: row.createdAt,
      updated_at: row.createdAt,
      about_at: row.aboutAt,
      content_hash: contentHash,
    };
    const columns = Object.keys(values);
    const inserted = await this.db.query<{ id: string }>(
      em,
      `INSERT INTO workstream_summaries (${columns.join(', ')}) VALUES (${this.db.params(columns.length)}) ON CONFLICT (content_hash) DO NOTHING RETURNING id`,
      Object.values(values),
    );
    if (inserted.length) return { id: row.id, inserted: true };
    const [kept] = await this.db.query<{ id: string }>(
      em,
      `SELECT id FROM workstream_summaries WHERE content_hash = ${this.db.param(1)}`,
      [contentHash],
    );
    if (!kept) throw new Error('workstream summary: the conflicting memory is gone');
    return { id: kept.id, inserted: false };
  }

  /** Links the summary to (live) assets, in the given order, and sets their `updated`. */
  async linkAssets(em: EntityManager, summaryId: string, assetIds: string[], at: string): Promise<void> {
    if (!assetIds.length) return;
    for (const assetId of assetIds)
      await this.db.insert(em, AssetWorkstreamSummaryEntity, {
        assetId,
        workstreamSummaryId: summaryId,
        createdAt: at,
      });
    await this.touchAssets(em, assetIds, at);
  }

  /**
   * Empties a deleted summary and keeps its row as a tombstone (reads answer 410); its links to
   * `assetIds` (those it had) go, and those assets' `updated` is set.
   */
  async tombstone(em: EntityManager, id: string, assetIds: string[], at: string): Promise<void> {
    await this.db.query(
      em,
      `DELETE FROM asset_workstream_summaries WHERE workstream_summary_id = ${this.db.param(1)}`,
      [id],
    );
    await this.db.query(
      em,
      `UPDATE workstream_summaries SET name = '', description = NULL, text = '', project = NULL, files = '[]', links = '[]', source = NULL, content_hash = NULL,
              updated_at = ${this.db.param(2)}, deleted_at = ${this.db.param(2)}
        WHERE id = ${this.db.param(1)}`,
      [id, at],
    );
    await this.touchAssets(em, assetIds, at);
  }

  private async touchAssets(em: EntityManager, assetIds: string[], at: string): Promise<void> {
    for (const part of chunks(assetIds)) {
      await this.db.query(
        em,
        `UPDATE assets SET updated_at = ${this.db.param(1)} WHERE id IN (${this.db.params(part.length, 2)})`,
        [at, ...part],
      );
    }
  }
}
