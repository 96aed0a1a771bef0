import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { NotFound } from '../../../common/errors/domain-errors';
import { ApplicationReader } from '../application.reader';
import { ApplicationWire, applicationWire } from '../wire/application.wire';

/** GET /applications/{application}: one application Trove knows (connected, or named by a seed). */
export class GetApplicationQuery extends Query<ApplicationWire> {
  constructor(readonly id: string) {
    super();
  }
}

@QueryHandler(GetApplicationQuery)
export class GetApplicationHandler implements IQueryHandler<GetApplicationQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ApplicationReader,
  ) {}

  async execute({ id }: GetApplicationQuery): Promise<ApplicationWire> {
    const app = await this.db.read((em) => this.reader.byId(em, id));
    if (!app) throw new NotFound(`application ${id} not found (GET /applications lists the connected ones)`);
    return applicationWire(app);
  }
}
