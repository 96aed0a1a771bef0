import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { MemoryRecord, WorkstreamSummaryReader } from '../../assets/workstream-summary.reader';

/** The memory resources a client lists: the most recent ones. */
export class RecentMemoriesQuery extends Query<MemoryRecord[]> {
  constructor(readonly limit: number) {
    super();
  }
}

@QueryHandler(RecentMemoriesQuery)
export class RecentMemoriesHandler implements IQueryHandler<RecentMemoriesQuery> {
  constructor(
    private readonly db: Database,
    private readonly memories: WorkstreamSummaryReader,
  ) {}

  execute({ limit }: RecentMemoriesQuery): Promise<MemoryRecord[]> {
    return this.db.read((em) => this.memories.list(em, limit));
  }
}
