import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A span of time (workstream) a conversation can be grounded in. */
@Entity('ranges')
export class RangeEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'from_at', type: 'varchar', length: 30, nullable: true })
  fromAt: string | null;

  @Column({ name: 'to_at', type: 'varchar', length: 30, nullable: true })
  toAt: string | null;

  @Column({ type: 'boolean', default: false })
  continuous: boolean;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
