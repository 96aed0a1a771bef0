import { Injectable } from '@nestjs/common';
import { EntityManager, LessThan } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { IdempotencyKeyEntity } from './idempotency-key.entity';

/** Every read and write of the idempotency_keys table, inside the caller's transaction. */
@Injectable()
export class IdempotencyKeyStore {
  constructor(private readonly db: Database) {}

  find(em: EntityManager, key: string): Promise<IdempotencyKeyEntity | null> {
    return em.findOne(IdempotencyKeyEntity, { where: { key } });
  }

  async insert(em: EntityManager, row: IdempotencyKeyEntity): Promise<void> {
    await this.db.insert(em, IdempotencyKeyEntity, row);
  }

  /** Forgets the keys recorded before `cutoff` (ISO-8601); answers how many. */
  async forgetBefore(em: EntityManager, cutoff: string): Promise<number> {
    const result = await em.delete(IdempotencyKeyEntity, { createdAt: LessThan(cutoff) });
    return result.affected ?? 0;
  }
}
