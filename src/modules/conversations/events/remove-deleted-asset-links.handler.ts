import { EventsHandler, EventBus, IEventHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { AssetChangedEvent } from '../../assets/events/asset-changed.event';
import { ConversationAssetEntity } from '../conversation-link.entity';
import { ConversationChangedEvent } from './conversation-changed.event';

/**
 * A deleted asset keeps a tombstone row, so its conversation links would survive it;
 * reads already hide them, and this removes the rows once the deletion is committed.
 */
@EventsHandler(AssetChangedEvent)
export class RemoveDeletedAssetLinksHandler implements IEventHandler<AssetChangedEvent> {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async handle(event: AssetChangedEvent): Promise<void> {
    if (event.change !== 'deleted') return;
    const conversations = await this.db.transaction(async (em) => {
      const links = await em.find(ConversationAssetEntity, { where: { assetId: event.assetId } });
      if (links.length) await em.delete(ConversationAssetEntity, { assetId: event.assetId });
      await this.outbox.appendMany(em, links.map((l) => ({ topic: 'conversations' as const, id: l.conversationId })));
      return links.map((l) => l.conversationId);
    });
    for (const id of conversations) this.events.publish(new ConversationChangedEvent(id, 'updated'));
  }
}
