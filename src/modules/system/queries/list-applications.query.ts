import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { IsNull, Not } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { ApplicationEntity } from '../application.entity';
import { ApplicationsWire, applicationWire } from '../wire/application.wire';

/** Applications that connected (POST /connect), most recent first. */
export class ListApplicationsQuery extends Query<ApplicationsWire> {}

@QueryHandler(ListApplicationsQuery)
export class ListApplicationsHandler implements IQueryHandler<ListApplicationsQuery> {
  constructor(private readonly db: Database) {}

  async execute(): Promise<ApplicationsWire> {
    const apps = await this.db.read((em) =>
      em.find(ApplicationEntity, { where: { connectedAt: Not(IsNull()) }, order: { connectedAt: 'DESC' } }),
    );
    return { iterable: apps.map(applicationWire) };
  }
}
