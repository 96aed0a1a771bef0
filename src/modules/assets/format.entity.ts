import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../system/application.entity';
import { AssetEntity } from './asset.entity';

/** One representation of an asset (its text). The first format is both original and preview. */
@Entity('formats')
@Index('formats_asset', ['assetId', 'position'])
export class FormatEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @Column({ type: 'integer', default: 0 })
  position: number;

  @Column({ type: 'varchar', length: 16 })
  role: string;

  @Column({ type: 'varchar', length: 32 })
  generic: string;

  @Column({ type: 'varchar', length: 32 })
  specific: string;

  @Column({ name: 'application_id', type: 'varchar', length: 36 })
  applicationId: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'application_id' })
  application: ApplicationEntity;

  @Column({ type: 'varchar', length: 36 })
  creator: string;

  /** True while the label is provisional: FormatClassifier detects the language after commit. */
  @Column({ name: 'classification_pending', type: 'boolean', default: false })
  classificationPending: boolean;

  /** The text of the format (`fragment.string.raw`). */
  @Column({ type: 'text' })
  raw: string;

  /** Size of `raw` in UTF-8 bytes. */
  @Column({ type: 'integer' })
  bytes: number;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
