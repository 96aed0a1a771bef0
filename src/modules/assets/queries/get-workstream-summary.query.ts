import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';
import { WorkstreamSummaryWire, workstreamSummaryWire } from '../wire/workstream-summary.wire';

/** One workstream summary: 404 when unknown, 410 once deleted. */
export class GetWorkstreamSummaryQuery extends Query<WorkstreamSummaryWire> {
  constructor(readonly summaryId: string) {
    super();
  }
}

@QueryHandler(GetWorkstreamSummaryQuery)
export class GetWorkstreamSummaryHandler implements IQueryHandler<GetWorkstreamSummaryQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: WorkstreamSummaryReader,
  ) {}

  execute({ summaryId }: GetWorkstreamSummaryQuery): Promise<WorkstreamSummaryWire> {
    return this.db.read(async (em) => workstreamSummaryWire(await this.reader.linked(em, summaryId)));
  }
}
