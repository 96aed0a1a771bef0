import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../system/application.entity';
import { AssetEntity } from './asset.entity';

/** What happened to an asset (see ActivityKind in events/asset-activity.event.ts). */
@Entity('activities')
@Index('activities_asset', ['assetId', 'createdAt'])
@Index('activities_listing', ['createdAt', 'id'])
export class ActivityEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Null for an activity about no asset (a client reporting its install, say). */
  @Column({ name: 'asset_id', type: 'varchar', length: 36, nullable: true })
  assetId: string | null;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity | null;

  @Column({ name: 'application_id', type: 'varchar', length: 36 })
  applicationId: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'application_id' })
  application: ApplicationEntity;

  /** created, updated, viewed, searched, exported, tag_added, ...; `reported` for one a client created (its event in `metadata`). */
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
