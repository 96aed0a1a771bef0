import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { AssetChangedEvent } from '../../assets/events/asset-changed.event';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * A deleted asset keeps a tombstone row, so its conversation links would survive it;
 * reads already hide them, and this removes the rows once the deletion is committed.
 */
@EventsHandler(AssetChangedEvent)
export class RemoveDeletedAssetLinksHandler implements IEventHandler<AssetChangedEvent> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async handle(event: AssetChangedEvent): Promise<void> {
    if (event.change !== 'deleted') return;
    await this.uow.run(async ({ em, changed }) => {
      const conversations = await this.reader.conversationIdsLinkedTo(em, event.assetId);
      if (conversations.length) await this.writer.removeAssetLinks(em, event.assetId);
      for (const id of conversations) changed({ id, change: 'updated' });
    });
  }
}
