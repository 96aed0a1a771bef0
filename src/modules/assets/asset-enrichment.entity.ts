import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/**
 * What Trove generated for an asset saved without a name, a description or tags, as it
 * generated them (AssetEnrichment). When the asset's text or language changes, a part the
 * asset still shows as generated is generated again from the new content; a part the user
 * changed meanwhile is the user's and stays.
 */
@Entity('asset_enrichments')
export class AssetEnrichmentEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @OneToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  /** The name Trove gave, or null when it gave none. */
  @Column({ type: 'varchar', length: 1024, nullable: true })
  name: string | null;

  /** The text of the DESCRIPTION annotation Trove wrote, or null. */
  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** The tags Trove added, a JSON array of their texts. */
  @Column({ type: 'text', default: '[]' })
  tags: string;
}
