import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A create that carried an `Idempotency-Key`: a retry with the same key answers the same resource. */
@Entity('idempotency_keys')
@Index('idempotency_keys_created', ['createdAt'])
export class IdempotencyKeyEntity {
  /** The operation and the client's key: `assets.create:<key>`. */
  @PrimaryColumn({ type: 'varchar', length: 320 })
  key: string;

  /** SHA-256 of the request: the same key with another request is refused. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ name: 'resource_id', type: 'varchar', length: 36 })
  resourceId: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
