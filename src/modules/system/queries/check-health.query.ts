import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { AppHost } from '../../../common/config/app-host';
import { Unavailable } from '../../../common/errors/domain-errors';
import { HealthReader } from '../health.reader';

/**
 * `ok` when the database answers; 503 otherwise, and from the moment a restart begins (clients
 * such as `pieces restart` poll health to know when the fresh app is up).
 */
export class CheckHealthQuery extends Query<string> {}

@QueryHandler(CheckHealthQuery)
export class CheckHealthHandler implements IQueryHandler<CheckHealthQuery> {
  constructor(
    private readonly health: HealthReader,
    private readonly host: AppHost,
  ) {}

  async execute(): Promise<string> {
    if (this.host.restarting) throw new Unavailable('restarting');
    try {
      await this.health.ping();
    } catch {
      throw new Unavailable('storage is unavailable');
    }
    return 'ok';
  }
}
