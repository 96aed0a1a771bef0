import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { ConversationAnchorWire, anchorWire } from '../wire/conversation.wire';

/** GET /anchor/{anchor}: one anchor with its path (404 unknown). */
export class GetAnchorQuery extends Query<ConversationAnchorWire> {
  constructor(readonly anchorId: string) {
    super();
  }
}

@QueryHandler(GetAnchorQuery)
export class GetAnchorHandler implements IQueryHandler<GetAnchorQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute({ anchorId }: GetAnchorQuery): Promise<ConversationAnchorWire> {
    return this.db.read(async (em) => anchorWire(await this.reader.anchor(em, anchorId)));
  }
}
