import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';

/** One conversation: 404 when unknown, 410 once deleted. */
export class GetConversationQuery extends Query<ConversationWire> {
  constructor(readonly conversationId: string) {
    super();
  }
}

@QueryHandler(GetConversationQuery)
export class GetConversationHandler implements IQueryHandler<GetConversationQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute({ conversationId }: GetConversationQuery): Promise<ConversationWire> {
    return this.db.read(async (em) => conversationWire(await this.reader.one(em, conversationId)));
  }
}
