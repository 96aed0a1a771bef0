import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { renderSummaryMarkdown } from '../export/workstream-summary-export';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';

/** One workstream summary as a Markdown document (renderSummaryMarkdown): 404 when unknown, 410 once deleted. */
export class ExportWorkstreamSummaryQuery extends Query<string> {
  constructor(readonly summaryId: string) {
    super();
  }
}

@QueryHandler(ExportWorkstreamSummaryQuery)
export class ExportWorkstreamSummaryHandler implements IQueryHandler<ExportWorkstreamSummaryQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: WorkstreamSummaryReader,
  ) {}

  execute({ summaryId }: ExportWorkstreamSummaryQuery): Promise<string> {
    return this.db.read(async (em) => renderSummaryMarkdown(await this.reader.linked(em, summaryId)));
  }
}
