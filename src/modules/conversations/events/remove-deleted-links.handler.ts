import { EventsHandler, IEventHandler } from '@nestjs/cqrs';
import { AssetChangedEvent } from '../../assets/events/asset-changed.event';
import { WorkstreamSummaryChangedEvent } from '../../assets/events/workstream-summary-changed.event';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * A deleted asset or workstream summary keeps a tombstone row, so conversations' links to it
 * would survive it; this removes them once the deletion is committed, and the conversations'
 * streams say they changed.
 */
@EventsHandler(AssetChangedEvent, WorkstreamSummaryChangedEvent)
export class RemoveDeletedLinksHandler implements IEventHandler<AssetChangedEvent | WorkstreamSummaryChangedEvent> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async handle(event: AssetChangedEvent | WorkstreamSummaryChangedEvent): Promise<void> {
    if (event.change !== 'deleted') return;
    const [kind, id] =
      event instanceof WorkstreamSummaryChangedEvent
        ? (['workstream_summary', event.summaryId] as const)
        : (['asset', event.assetId] as const);
    await this.uow.run(async ({ em, changed }) => {
      const conversations = await this.reader.conversationIdsLinkedTo(em, kind, id);
      if (conversations.length) await this.writer.removeLinksTo(em, kind, id);
      for (const conversation of conversations) changed({ id: conversation, change: 'updated' });
    });
  }
}
