import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from './asset.entity';

/**
 * A secret found in an asset's text (AssetSecrets, at every change of the text): what kind it is
 * and where, never the secret itself (`text` is its mask, `AKIA************MPLE`). A row the user
 * dismissed (POST /sensitives/{id}/delete: "not a secret") keeps its `fingerprint` with
 * `dismissed_at` set, so that detecting the same value again does not bring it back; the
 * listings and the asset leave such rows out.
 */
@Entity('sensitives')
@Index('sensitives_asset', ['assetId'])
@Index('sensitives_listing', ['dismissedAt', 'createdAt', 'id'])
export class SensitiveEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  /** The rule that found it (a secretlint rule id, or `trove/...`). */
  @Column({ type: 'varchar', length: 96 })
  rule: string;

  /** SHA-256 of the asset, the secret's value and its occurrence: the same secret found again matches it. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  /** The secret masked: its first and last characters at most. */
  @Column({ type: 'varchar', length: 128 })
  text: string;

  @Column({ type: 'varchar', length: 16 })
  category: string;

  @Column({ type: 'varchar', length: 16 })
  severity: string;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 16 })
  mechanism: string;

  /** Where it is in the asset's first format's text (UTF-16 offsets, `match_end` exclusive). */
  @Column({ name: 'match_start', type: 'integer' })
  matchStart: number;

  @Column({ name: 'match_end', type: 'integer' })
  matchEnd: number;

  /** Bits per character of the value. */
  @Column({ type: 'real', nullable: true })
  entropy: number | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;

  @Column({ name: 'dismissed_at', type: 'varchar', length: 30, nullable: true })
  dismissedAt: string | null;
}
