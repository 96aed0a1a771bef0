import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ApplicationReader } from '../application.reader';
import { ApplicationsWire, applicationWire } from '../wire/application.wire';

/** Applications that connected (POST /connect), most recent first. */
export class ListApplicationsQuery extends Query<ApplicationsWire> {}

@QueryHandler(ListApplicationsQuery)
export class ListApplicationsHandler implements IQueryHandler<ListApplicationsQuery> {
  constructor(
    private readonly db: Database,
    private readonly applications: ApplicationReader,
  ) {}

  async execute(): Promise<ApplicationsWire> {
    const apps = await this.db.read((em) => this.applications.connected(em));
    return { iterable: apps.map(applicationWire) };
  }
}
