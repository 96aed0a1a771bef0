import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { InvalidInput, Unprocessable } from '../../common/errors/domain-errors';
import { nowIso } from '../../common/wire/common.wire';
import { IdempotencyKeyStore } from './idempotency-key.store';

/** Keys are kept this long: a client retrying after a lost response does so within minutes. */
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** A client's `Idempotency-Key` for one operation, with the request it came with. */
export interface IdempotentRequest {
  key: string;
  hash: string;
}

/**
 * Idempotent creates: the key is recorded in the create's own transaction, so a retry after a
 * lost response (or a crash after commit) finds it and answers the resource already created.
 */
@Injectable()
export class IdempotencyKeys implements OnApplicationBootstrap {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly db: Database,
    private readonly store: IdempotencyKeyStore,
  ) {}

  /** Validates the header; null when none was sent. */
  request(operation: string, header: unknown, body: unknown): IdempotentRequest | null {
    if (header === undefined || header === null || header === '') return null;
    if (typeof header !== 'string' || !VALID_KEY.test(header)) {
      throw new InvalidInput('Idempotency-Key must be 1-255 visible ASCII characters');
    }
    return {
      key: `${operation}:${header}`,
      hash: createHash('sha256')
        .update(JSON.stringify(body ?? null))
        .digest('hex'),
    };
  }

  /** The resource a previous request with this key created (inside the caller's transaction), or null. */
  async find(em: EntityManager, request: IdempotentRequest): Promise<string | null> {
    const row = await this.store.find(em, request.key);
    if (!row) return null;
    if (row.requestHash !== request.hash) {
      throw new Unprocessable('this Idempotency-Key was already used with a different request');
    }
    return row.resourceId;
  }

  async record(em: EntityManager, request: IdempotentRequest, resourceId: string): Promise<void> {
    await this.store.insert(em, { key: request.key, requestHash: request.hash, resourceId, createdAt: nowIso() });
  }

  /** Two requests with one key raced on PostgreSQL: the loser's transaction hit the primary key. */
  isRace(error: unknown): boolean {
    const e = error as { code?: string; driverError?: { code?: string }; message?: string };
    const code = e?.driverError?.code ?? e?.code;
    return (
      code === '23505' || (/idempotency_keys/.test(String(e?.message)) && /UNIQUE|duplicate/i.test(String(e?.message)))
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const cutoff = new Date(Date.now() - RETENTION_MS).toISOString();
    const forgotten = await this.db.transaction((em) => this.store.forgetBefore(em, cutoff));
    if (forgotten) this.logger.log(`forgot ${forgotten} idempotency keys older than 7 days`);
  }
}
