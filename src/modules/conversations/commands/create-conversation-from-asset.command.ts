import { Inject } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetReader } from '../../assets/asset.reader';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationAssetEntity } from '../conversation-link.entity';
import { ConversationWriter } from '../conversation.writer';
import { ConversationEntity } from '../conversation.entity';
import { ConversationChangedEvent } from '../events/conversation-changed.event';
import { ConversationMessageAddedEvent } from '../events/conversation-message-added.event';
import { ConversationsCreateFromAssetOutputWire } from '../wire/conversation.wire';
import { newConversation } from './create-conversation.command';

/**
 * Starts a COPILOT conversation about an asset: linked to it, named after it, and opened by
 * an ASSISTANT message describing it (what it is, its language, its key parts).
 */
export class CreateConversationFromAssetCommand extends Command<ConversationsCreateFromAssetOutputWire> {
  constructor(readonly assetId: string) {
    super();
  }
}

@CommandHandler(CreateConversationFromAssetCommand)
export class CreateConversationFromAssetHandler implements ICommandHandler<CreateConversationFromAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
    private readonly writer: ConversationWriter,
    @Inject(TEXT_GENERATOR) private readonly text: TextGenerator,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ assetId }: CreateConversationFromAssetCommand): Promise<ConversationsCreateFromAssetOutputWire> {
    // Describe outside the write transaction (a model may take seconds), then write.
    const aggregate = await this.db.read((em) => this.assets.one(em, assetId));
    const original = aggregate.formats[0];
    const description = await this.text.describeAsset({
      name: aggregate.asset.name,
      text: original?.raw ?? '',
      generic: original?.generic ?? 'UNKNOWN',
      specific: original?.specific ?? 'UNKNOWN',
    });
    const id = randomUUID();
    const [message] = await this.db.transaction(async (em) => {
      const asset = await this.assets.require(em, assetId);
      await em.insert(ConversationEntity, newConversation(id, { type: 'COPILOT', name: asset.name }));
      await em.insert(ConversationAssetEntity, { conversationId: id, assetId, createdAt: nowIso() });
      const messages = await this.writer.addMessages(em, id, [{ role: 'ASSISTANT', text: description }]);
      await this.outbox.appendMany(em, [
        { topic: 'conversations', id },
        { topic: 'assets', id: assetId },
      ]);
      return messages;
    });
    this.events.publish(new ConversationChangedEvent(id, 'created'));
    this.events.publish(new ConversationMessageAddedEvent(id, message.id, message.role));
    return { conversation: { id } };
  }
}
