import { Logger } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { performance } from 'node:perf_hooks';
import { AppHost } from '../../../common/config/app-host';
import { Database } from '../../../common/database/database.service';
import { Unavailable } from '../../../common/errors/domain-errors';
import { HealthReader } from '../health.reader';
import { ReadinessWire } from '../wire/readiness.wire';

/** How long the database has to answer before the instance is reported not ready. */
export const READY_WITHIN_MS = 1000;

/**
 * Readiness (an orchestrator's or load balancer's probe): ready when the database answers a
 * trivial query within READY_WITHIN_MS, 503 otherwise and while a restart is under way. Unlike
 * health (text, no bound, what the Pieces clients' port scans call), it answers in a bounded
 * time whatever the database does, and says why in JSON. Why the database failed goes to the
 * log, not to the answer: the route is public.
 */
export class CheckReadinessQuery extends Query<ReadinessWire> {}

@QueryHandler(CheckReadinessQuery)
export class CheckReadinessHandler implements IQueryHandler<CheckReadinessQuery> {
  private readonly logger = new Logger('Readiness');

  constructor(
    private readonly health: HealthReader,
    private readonly db: Database,
    private readonly host: AppHost,
  ) {}

  async execute(): Promise<ReadinessWire> {
    if (this.host.restarting) throw new Unavailable('not ready: the server is restarting');
    const started = performance.now();
    try {
      await this.health.pingWithin(READY_WITHIN_MS);
    } catch (error) {
      this.logger.warn(`not ready: ${(error as Error).message}`);
      throw new Unavailable(`not ready: the database did not answer a trivial query within ${READY_WITHIN_MS} ms`);
    }
    return {
      status: 'ready',
      storage: this.db.dialect,
      databaseMs: Math.round((performance.now() - started) * 100) / 100,
    };
  }
}
