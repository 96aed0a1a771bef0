import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A saved snippet. Deleting keeps the row as a tombstone (`deletedAt`) so reads answer 410. */
@Entity('assets')
@Index('assets_listing', ['deletedAt', 'createdAt'])
@Index('assets_walk', ['deletedAt', 'pseudo', 'createdAt', 'id'])
export class AssetEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 36 })
  creator: string;

  @Column({ type: 'varchar', length: 16 })
  mechanism: string;

  @Column({ type: 'boolean', default: false })
  favorited: boolean;

  @Column({ type: 'boolean', default: false })
  pseudo: boolean;

  @Column({ name: 'score_manual', type: 'integer', default: 0 })
  scoreManual: number;

  @Column({ name: 'score_automatic', type: 'integer', default: 0 })
  scoreAutomatic: number;

  /** Per-kind counters of POST /asset/{asset}/scores/increment (SeededScore). */
  @Column({ name: 'score_reuse', type: 'integer', default: 0 })
  scoreReuse: number;

  @Column({ name: 'score_update', type: 'integer', default: 0 })
  scoreUpdate: number;

  @Column({ name: 'score_reference', type: 'integer', default: 0 })
  scoreReference: number;

  @Column({ name: 'score_priority', type: 'integer', default: 0 })
  scorePriority: number;

  @Column({ name: 'score_searched', type: 'integer', default: 0 })
  scoreSearched: number;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;

  @Column({ name: 'deleted_at', type: 'varchar', length: 30, nullable: true })
  deletedAt: string | null;
}
