import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/**
 * A summary of a stretch of work, and what an agent saves as a memory: a short title (`name`),
 * the full markdown `text`, an optional description and project, the files and links it names
 * (JSON arrays of strings) and the application that saved it (`source`). Assets link to it
 * through `asset_workstream_summaries`, conversations through `conversation_workstream_summaries`.
 * A deleted one keeps an emptied row (`deleted_at`), so reads answer 410. The full-text index
 * over name, description, text, project, files and links is the migration's (FTS5 table
 * `workstream_summaries_fts` on SQLite, the generated column `search` on PostgreSQL), read by
 * WorkstreamSummaryReader.search.
 */
@Entity('workstream_summaries')
@Index('workstream_summaries_listing', ['deletedAt', 'createdAt'])
@Index('workstream_summaries_about', ['deletedAt', 'aboutAt'])
@Index('workstream_summaries_content', ['contentHash'], { unique: true })
export class WorkstreamSummaryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 1024 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', default: '' })
  text: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  project: string | null;

  /** JSON array of file paths. */
  @Column({ type: 'text', default: '[]' })
  files: string;

  /** JSON array of http(s) URLs. */
  @Column({ type: 'text', default: '[]' })
  links: string;

  /** The connected client or application that saved it, when known. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  source: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;

  /** The time the memory is about: its creation, or the time the client gave. */
  @Column({ name: 'about_at', type: 'varchar', length: 30, nullable: true })
  aboutAt: string | null;

  /** memoryContentHash of a live memory (unique: saving the same one again keeps one); none once deleted. */
  @Column({ name: 'content_hash', type: 'varchar', length: 64, nullable: true })
  contentHash: string | null;

  @Column({ name: 'deleted_at', type: 'varchar', length: 30, nullable: true })
  deletedAt: string | null;
}

@Entity('asset_workstream_summaries')
@Index('asset_workstream_summaries_summary', ['workstreamSummaryId', 'createdAt'])
export class AssetWorkstreamSummaryEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @PrimaryColumn({ name: 'workstream_summary_id', type: 'varchar', length: 36 })
  workstreamSummaryId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @ManyToOne(() => WorkstreamSummaryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workstream_summary_id' })
  summary: WorkstreamSummaryEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
