import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../system/application.entity';
import { AssetEntity } from './asset.entity';

/** What happened to an asset (see ActivityKind in events/asset-activity.event.ts). */
@Entity('activities')
@Index('activities_asset', ['assetId', 'createdAt'])
export class ActivityEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @Column({ name: 'application_id', type: 'varchar', length: 36 })
  applicationId: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'application_id' })
  application: ApplicationEntity;

  /** created, updated, viewed, searched, exported, tag_added, ... */
  @Column({ type: 'varchar', length: 32 })
  event: string;

  @Column({ type: 'varchar', length: 16 })
  mechanism: string;

  /** JSON details of the event (tag id, search query, previous classification, ...), or null. */
  @Column({ type: 'text', nullable: true })
  metadata: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
