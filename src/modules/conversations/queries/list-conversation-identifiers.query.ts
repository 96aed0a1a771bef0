import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { FlattenedConversationsWire } from '../wire/conversation.wire';

/** Ids of every live conversation, most recent first. */
export class ListConversationIdentifiersQuery extends Query<FlattenedConversationsWire> {}

@QueryHandler(ListConversationIdentifiersQuery)
export class ListConversationIdentifiersHandler implements IQueryHandler<ListConversationIdentifiersQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute(): Promise<FlattenedConversationsWire> {
    return this.db.read(async (em) => ({ iterable: (await this.reader.liveIds(em)).map((id) => ({ id })) }));
  }
}
