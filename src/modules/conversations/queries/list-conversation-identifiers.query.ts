import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { IsNull } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { ConversationEntity } from '../conversation.entity';
import { FlattenedConversationsWire } from '../wire/conversation.wire';

/** Ids of every live conversation, most recent first. */
export class ListConversationIdentifiersQuery extends Query<FlattenedConversationsWire> {}

@QueryHandler(ListConversationIdentifiersQuery)
export class ListConversationIdentifiersHandler implements IQueryHandler<ListConversationIdentifiersQuery> {
  constructor(private readonly db: Database) {}

  execute(): Promise<FlattenedConversationsWire> {
    return this.db.read(async (em) => {
      const rows = await em.find(ConversationEntity, {
        select: { id: true },
        where: { deletedAt: IsNull() },
        order: { createdAt: 'DESC', id: 'DESC' },
      });
      return { iterable: rows.map((r) => ({ id: r.id })) };
    });
  }
}
