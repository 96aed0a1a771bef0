import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/** A tag is one record per distinct text, linked to assets through `asset_tags`. */
@Entity('tags')
export class TagEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 256, unique: true })
  text: string;

  @Column({ type: 'varchar', length: 16, default: 'UNKNOWN' })
  category: string;

  @Column({ type: 'varchar', length: 16, default: 'MANUAL' })
  mechanism: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}

/** An asset's tags in link order, by the index alone: asset reads take only the ids (the records are kept in memory). */
@Entity('asset_tags')
@Index('asset_tags_order', ['assetId', 'createdAt', 'tagId'])
export class AssetTagEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @PrimaryColumn({ name: 'tag_id', type: 'varchar', length: 36 })
  tagId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @ManyToOne(() => TagEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id' })
  tag: TagEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
