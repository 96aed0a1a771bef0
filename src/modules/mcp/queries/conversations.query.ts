import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { ConversationReader } from '../../conversations/conversation.reader';

export interface ConversationSummary {
  id: string;
  name: string;
  created: string;
  updated: string;
}

export interface ConversationTranscript extends ConversationSummary {
  messages: Array<{ role: string; text: string; created: string }>;
}

/** list_conversations: the most recent live conversations. */
export class RecentConversationsQuery extends Query<ConversationSummary[]> {
  constructor(readonly limit: number) {
    super();
  }
}

/** read_conversation: a live conversation's messages in thread order (404 unknown, 410 deleted). */
export class ReadConversationQuery extends Query<ConversationTranscript> {
  constructor(readonly id: string) {
    super();
  }
}

@QueryHandler(RecentConversationsQuery)
export class RecentConversationsHandler implements IQueryHandler<RecentConversationsQuery> {
  constructor(
    private readonly db: Database,
    private readonly conversations: ConversationReader,
  ) {}

  async execute({ limit }: RecentConversationsQuery): Promise<ConversationSummary[]> {
    const recent = await this.db.read((em) => this.conversations.list(em, limit));
    return recent.map((c) => ({
      id: c.id,
      name: c.name ?? 'Untitled conversation',
      created: c.createdAt,
      updated: c.updatedAt,
    }));
  }
}

@QueryHandler(ReadConversationQuery)
export class ReadConversationHandler implements IQueryHandler<ReadConversationQuery> {
  constructor(
    private readonly db: Database,
    private readonly conversations: ConversationReader,
  ) {}

  execute({ id }: ReadConversationQuery): Promise<ConversationTranscript> {
    return this.db.read(async (em) => {
      const c = await this.conversations.require(em, id);
      const messages = (await this.conversations.messages(em, id)).filter((m) => !m.deletedAt);
      return {
        id: c.id,
        name: c.name ?? 'Untitled conversation',
        created: c.createdAt,
        updated: c.updatedAt,
        messages: messages.map((m) => ({ role: m.role, text: m.text, created: m.createdAt })),
      };
    });
  }
}
