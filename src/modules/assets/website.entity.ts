import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/** A website is one record per distinct URL, linked to assets through `asset_websites`. */
@Entity('websites')
export class WebsiteEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 2048, unique: true })
  url: string;

  @Column({ type: 'varchar', length: 512 })
  name: string;

  @Column({ type: 'varchar', length: 16, default: 'MANUAL' })
  mechanism: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}

@Entity('asset_websites')
export class AssetWebsiteEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @PrimaryColumn({ name: 'website_id', type: 'varchar', length: 36 })
  websiteId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @ManyToOne(() => WebsiteEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'website_id' })
  website: WebsiteEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
