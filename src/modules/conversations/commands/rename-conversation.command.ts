import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * Names a conversation from its content: the title the text generator gives what the user
 * asked in it (its live USER messages; the answers quote snippets and say which engine answered,
 * which is not what the chat is about), else its other messages, else the names of its linked
 * assets. A conversation with nothing to name it by keeps its name.
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
    private readonly writer: ConversationWriter,
    @Inject(TEXT_GENERATOR) private readonly text: TextGenerator,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId }: RenameConversationCommand): Promise<ConversationWire> {
    // Read, generate outside any transaction (a model may take seconds), then write.
    const sources = await this.db.read(async (em) => {
      const aggregate = await this.reader.one(em, conversationId);
      const messages = (await this.reader.messages(em, conversationId)).filter((m) => !m.deletedAt && m.text.trim());
      const asked = messages.filter((m) => m.role === 'USER');
      if (asked.length) return asked.map((m) => m.text);
      if (messages.length) return messages.map((m) => m.text);
      return aggregate.assets.map((a) => a.asset.name ?? '').filter(Boolean);
    });
    const title = sources.length ? (await this.text.title(sources)).trim().slice(0, 1024) : '';
    return this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      if (title) {
        await this.writer.updateConversation(em, conversationId, { name: title, updatedAt: nowIso() });
        changed({ id: conversationId, change: 'updated' });
      }
      return conversationWire(await this.reader.one(em, conversationId));
    });
  }
}
