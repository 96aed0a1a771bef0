import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { jsonCollection } from '../../../common/http/json-stream';
import { PageRequest, nextCursor } from '../../../common/wire/paging';
import { ConversationReader } from '../conversation.reader';
import { ConversationsWire, conversationWire } from '../wire/conversation.wire';

/** Conversations of one page of the walk. */
const PAGE = 100;

/** Every live conversation, most recent first, streamed; or one page when the client pages (`limit`, `cursor`). */
export class ListConversationsQuery extends Query<StreamableFile | ConversationsWire> {
  constructor(readonly page: PageRequest | null = null) {
    super();
  }
}

@QueryHandler(ListConversationsQuery)
export class ListConversationsHandler implements IQueryHandler<ListConversationsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  async execute({ page }: ListConversationsQuery): Promise<StreamableFile | ConversationsWire> {
    if (page) {
      const { aggregates, last } = await this.db.read((em) => this.reader.page(em, page.after, page.limit));
      return { iterable: aggregates.map(conversationWire), next_cursor: nextCursor(last) };
    }
    return jsonCollection(this.reader.walk(PAGE), { item: (c) => JSON.stringify(conversationWire(c)) });
  }
}
