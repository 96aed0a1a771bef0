import { Inject } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationReader } from '../conversation.reader';
import { ConversationEntity } from '../conversation.entity';
import { ConversationChangedEvent } from '../events/conversation-changed.event';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';

/**
 * Names a conversation from its content: the title the text generator gives its live
 * messages (or, with no message text, the names of its linked assets). A conversation
 * with nothing to name it by keeps its name.
 */
export class RenameConversationCommand extends Command<ConversationWire> {
  constructor(readonly conversationId: string) {
    super();
  }
}

@CommandHandler(RenameConversationCommand)
export class RenameConversationHandler implements ICommandHandler<RenameConversationCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    @Inject(TEXT_GENERATOR) private readonly text: TextGenerator,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversationId }: RenameConversationCommand): Promise<ConversationWire> {
    // Read, generate outside any transaction (a model may take seconds), then write.
    const sources = await this.db.read(async (em) => {
      const aggregate = await this.reader.one(em, conversationId);
      const messages = (await this.reader.messages(em, conversationId)).filter((m) => !m.deletedAt && m.text.trim());
      if (messages.length) return messages.map((m) => m.text);
      return aggregate.assets.map((a) => a.asset.name ?? '').filter(Boolean);
    });
    const title = sources.length ? (await this.text.title(sources)).trim().slice(0, 1024) : '';
    const renamed = await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      if (title) await em.update(ConversationEntity, { id: conversationId }, { name: title, updatedAt: nowIso() });
      const wire = conversationWire(await this.reader.one(em, conversationId));
      if (title) await this.outbox.append(em, 'conversations', conversationId);
      return wire;
    });
    if (title) this.events.publish(new ConversationChangedEvent(conversationId, 'updated'));
    return renamed;
  }
}
