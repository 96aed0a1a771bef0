import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../conversation.reader';
import { ConversationMessageWire, conversationMessageWire } from '../wire/conversation.wire';

/** GET /message/{message}: one message (404 unknown, 410 deleted or in a deleted conversation). */
export class GetMessageQuery extends Query<ConversationMessageWire> {
  constructor(
    readonly messageId: string,
    readonly withContent: boolean,
  ) {
    super();
  }
}

@QueryHandler(GetMessageQuery)
export class GetMessageHandler implements IQueryHandler<GetMessageQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  execute({ messageId, withContent }: GetMessageQuery): Promise<ConversationMessageWire> {
    return this.db.read(async (em) => conversationMessageWire(await this.reader.message(em, messageId), withContent));
  }
}
