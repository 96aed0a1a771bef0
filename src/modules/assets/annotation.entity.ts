import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/** A description, comment, summary, ... attached to an asset. */
@Entity('annotations')
@Index('annotations_asset', ['assetId'])
@Index('annotations_listing', ['createdAt', 'id'])
export class AnnotationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'asset_id', type: 'varchar', length: 36, nullable: true })
  assetId: string | null;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity | null;

  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ type: 'text' })
  text: string;

  @Column({ type: 'varchar', length: 16 })
  mechanism: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
