import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/** A summary of a stretch of work; assets link to it through `asset_workstream_summaries`. */
@Entity('workstream_summaries')
export class WorkstreamSummaryEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 1024 })
  name: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}

@Entity('asset_workstream_summaries')
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
