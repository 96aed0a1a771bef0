import { ServiceUnavailableException } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';

/** `ok` when the database answers; 503 otherwise. */
export class CheckHealthQuery extends Query<string> {}

@QueryHandler(CheckHealthQuery)
export class CheckHealthHandler implements IQueryHandler<CheckHealthQuery> {
  constructor(private readonly db: Database) {}

  async execute(): Promise<string> {
    try {
      await this.db.read((em) => em.query('SELECT 1'));
    } catch {
      throw new ServiceUnavailableException('storage is unavailable');
    }
    return 'ok';
  }
}
