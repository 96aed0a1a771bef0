import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { ConversationAnnotationEntity } from '../conversation-annotation.entity';
import { JOIN_ENTITIES } from '../conversation-links';
import { ConversationAssetEntity, ConversationGroundingMessageEntity } from '../conversation-link.entity';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationEntity } from '../conversation.entity';
import { ConversationChangedEvent } from '../events/conversation-changed.event';

/**
 * Deletes a conversation's messages, annotations and links (both sides: the join rows
 * are the links) and keeps a tombstone row, so later reads answer 410 instead of 404.
 */
export class DeleteConversationCommand extends Command<void> {
  constructor(readonly conversationId: string) {
    super();
  }
}

@CommandHandler(DeleteConversationCommand)
export class DeleteConversationHandler implements ICommandHandler<DeleteConversationCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversationId }: DeleteConversationCommand): Promise<void> {
    const groundedElsewhere = await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      // Other conversations grounded in this one's messages lose that grounding.
      const others = await em
        .createQueryBuilder(ConversationGroundingMessageEntity, 'g')
        .innerJoin(ConversationMessageEntity, 'm', 'm.id = g.message_id')
        .where('m.conversation_id = :conversationId', { conversationId })
        .andWhere('g.conversation_id <> :conversationId', { conversationId })
        .select('DISTINCT g.conversation_id', 'id')
        .getRawMany<{ id: string }>();
      await em
        .createQueryBuilder()
        .delete()
        .from(ConversationGroundingMessageEntity)
        .where(`message_id IN (SELECT id FROM conversation_messages WHERE conversation_id = :conversationId)`, { conversationId })
        .execute();
      const assets = await em.find(ConversationAssetEntity, { select: { assetId: true }, where: { conversationId } });
      for (const entity of JOIN_ENTITIES) await em.delete(entity, { conversationId });
      await em.delete(ConversationAnnotationEntity, { conversationId });
      await em.delete(ConversationMessageEntity, { conversationId });
      const now = nowIso();
      await em.update(ConversationEntity, { id: conversationId }, { deletedAt: now, updatedAt: now, name: null });
      await this.outbox.appendMany(em, [
        { topic: 'conversations', id: conversationId, deleted: true },
        ...others.map((o) => ({ topic: 'conversations' as const, id: o.id })),
        ...assets.map((a) => ({ topic: 'assets' as const, id: a.assetId })),
      ]);
      return others.map((o) => o.id);
    });
    this.events.publish(new ConversationChangedEvent(conversationId, 'deleted'));
    for (const other of groundedElsewhere) this.events.publish(new ConversationChangedEvent(other, 'updated'));
  }
}
