import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { ConversationMessagesWire, conversationMessagesWire } from '../wire/conversation.wire';

/** The messages of one conversation in thread order (deleted ones carry `deleted` and index -1). */
export class GetConversationMessagesQuery extends Query<ConversationMessagesWire> {
  constructor(
    readonly conversationId: string,
    readonly transferables: boolean,
  ) {
    super();
  }
}

@QueryHandler(GetConversationMessagesQuery)
export class GetConversationMessagesHandler implements IQueryHandler<GetConversationMessagesQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute({ conversationId, transferables }: GetConversationMessagesQuery): Promise<ConversationMessagesWire> {
    return this.db.read(async (em) => {
      await this.reader.require(em, conversationId);
      return conversationMessagesWire(await this.reader.messages(em, conversationId), transferables);
    });
  }
}
