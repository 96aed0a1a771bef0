import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { ConversationsWire, conversationWire } from '../wire/conversation.wire';

/** Every live conversation, most recent first. */
export class ListConversationsQuery extends Query<ConversationsWire> {}

@QueryHandler(ListConversationsQuery)
export class ListConversationsHandler implements IQueryHandler<ListConversationsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute(): Promise<ConversationsWire> {
    return this.db.read(async (em) => ({ iterable: (await this.reader.aggregates(em, await this.reader.list(em))).map(conversationWire) }));
  }
}
