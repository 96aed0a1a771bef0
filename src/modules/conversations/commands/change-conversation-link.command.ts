import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetReader } from '../../assets/asset.reader';
import { LINKS, LinkKind } from '../conversation-links';
import { ConversationReader } from '../conversation.reader';
import { ConversationEntity } from '../conversation.entity';
import { ConversationChangedEvent } from '../events/conversation-changed.event';

/**
 * Associates (`linked` true) or disassociates a conversation and another record: one join
 * row, written in one transaction, so both sides agree. Idempotent; 404 for unknown ids.
 */
export class ChangeConversationLinkCommand extends Command<void> {
  constructor(
    readonly conversationId: string,
    readonly kind: LinkKind,
    readonly targetId: string,
    readonly linked: boolean,
  ) {
    super();
  }
}

@CommandHandler(ChangeConversationLinkCommand)
export class ChangeConversationLinkHandler implements ICommandHandler<ChangeConversationLinkCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly assets: AssetReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversationId, kind, targetId, linked }: ChangeConversationLinkCommand): Promise<void> {
    const spec = LINKS[kind];
    const changed = await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      await spec.check(em, targetId, linked, this.assets);
      const key = { conversationId, [spec.column]: targetId };
      const present = await em.exists(spec.join, { where: key });
      if (present === linked) return false;
      const now = nowIso();
      if (linked) await em.insert(spec.join, { ...key, createdAt: now });
      else await em.delete(spec.join, key);
      await em.update(ConversationEntity, { id: conversationId }, { updatedAt: now });
      // An asset's conversations changed too (GET /asset/{id}/conversations).
      await this.outbox.appendMany(em, [
        { topic: 'conversations', id: conversationId },
        ...(kind === 'asset' ? [{ topic: 'assets' as const, id: targetId }] : []),
      ]);
      return true;
    });
    if (changed) this.events.publish(new ConversationChangedEvent(conversationId, 'updated'));
  }
}
