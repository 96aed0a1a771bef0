import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { keysetSlice } from '../../../common/database/keyset';
import { ID_LISTING_PAGE, idListingPages, jsonTextCollection } from '../../../common/http/json-stream';
import { PageRequest, nextCursor } from '../../../common/wire/paging';
import { ConversationReader } from '../conversation.reader';
import { FlattenedConversationsWire } from '../wire/conversation.wire';

/** Ids of every live conversation, most recent first, streamed; or one page when the client pages (`limit`, `cursor`). */
export class ListConversationIdentifiersQuery extends Query<StreamableFile | FlattenedConversationsWire> {
  constructor(readonly page: PageRequest | null = null) {
    super();
  }
}

@QueryHandler(ListConversationIdentifiersQuery)
export class ListConversationIdentifiersHandler implements IQueryHandler<ListConversationIdentifiersQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
  ) {}

  async execute({ page }: ListConversationIdentifiersQuery): Promise<StreamableFile | FlattenedConversationsWire> {
    if (page) {
      const { rows, last } = await this.db.read((em) =>
        keysetSlice(this.db, em, ConversationReader.LISTING, page.after, page.limit),
      );
      return { iterable: rows.map((row) => ({ id: row.id })), next_cursor: nextCursor(last) };
    }
    return jsonTextCollection(idListingPages(this.reader.walkIds(ID_LISTING_PAGE)));
  }
}
