import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationSummarizeInputDto } from '../dto/conversation-summarize-input.dto';
import { ConversationSummarizeOutputWire } from '../wire/conversation.wire';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/** Sentences in a conversation summary. */
const SUMMARY_SENTENCES = 3;

/**
 * Summarizes a conversation (all live messages, or only the given ones) and saves the
 * summary as a SUMMARY annotation of the conversation; returns references to both.
 */
export class SummarizeConversationCommand extends Command<ConversationSummarizeOutputWire> {
  constructor(
    readonly conversationId: string,
    readonly input: ConversationSummarizeInputDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(SummarizeConversationCommand)
export class SummarizeConversationHandler implements ICommandHandler<SummarizeConversationCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    @Inject(TEXT_GENERATOR) private readonly text: TextGenerator,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId, input }: SummarizeConversationCommand): Promise<ConversationSummarizeOutputWire> {
    const wanted = input?.messages ? [...new Set(input.messages.iterable.map((m) => m.id))] : null;
    const texts = await this.db.read(async (em) => {
      await this.reader.require(em, conversationId);
      if (!wanted)
        return (await this.reader.messages(em, conversationId)).filter((m) => !m.deletedAt).map((m) => m.text);
      if (wanted.length === 0) throw new InvalidInput('messages.iterable must list at least one message');
      const found = await this.reader.messagesById(em, wanted);
      for (const id of wanted) {
        const message = found.find((m) => m.id === id);
        if (!message) throw new NotFound(`message ${id} not found`);
        if (message.conversationId !== conversationId)
          throw new InvalidInput(`message ${id} is not a message of conversation ${conversationId}`);
      }
      return found.map((m) => m.text);
    });
    const summary = (await this.text.summarize(texts, SUMMARY_SENTENCES)).trim();
    if (!summary) throw new InvalidInput(`conversation ${conversationId} has no message text to summarize`);
    const annotation = await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      const row = await this.writer.addAnnotation(em, conversationId, {
        type: 'SUMMARY',
        text: summary,
        mechanism: 'AUTOMATIC',
      });
      await this.writer.updateConversation(em, conversationId, { updatedAt: nowIso() });
      changed({ id: conversationId, change: 'updated' });
      return row;
    });
    return { conversation: { id: conversationId }, annotation: { id: annotation.id } };
  }
}
