import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';
import { WorkstreamSummariesWire, workstreamSummaryWire } from '../wire/workstream-summary.wire';

/** Every live workstream summary, most recent first. */
export class ListWorkstreamSummariesQuery extends Query<WorkstreamSummariesWire> {}

@QueryHandler(ListWorkstreamSummariesQuery)
export class ListWorkstreamSummariesHandler implements IQueryHandler<ListWorkstreamSummariesQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: WorkstreamSummaryReader,
  ) {}

  execute(): Promise<WorkstreamSummariesWire> {
    return this.db.read(async (em) => ({ iterable: (await this.reader.allLinked(em)).map(workstreamSummaryWire) }));
  }
}
