import { BadRequestException, Inject, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { In } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationEntity } from '../conversation.entity';
import { ConversationSummarizeInputDto } from '../dto/conversation-summarize-input.dto';
import { ConversationChangedEvent } from '../events/conversation-changed.event';
import { ConversationSummarizeOutputWire } from '../wire/conversation.wire';

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
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversationId, input }: SummarizeConversationCommand): Promise<ConversationSummarizeOutputWire> {
    const wanted = input?.messages ? [...new Set(input.messages.iterable.map((m) => m.id))] : null;
    const texts = await this.db.read(async (em) => {
      await this.reader.require(em, conversationId);
      if (!wanted) return (await this.reader.messages(em, conversationId)).filter((m) => !m.deletedAt).map((m) => m.text);
      if (wanted.length === 0) throw new BadRequestException('messages.iterable must list at least one message');
      const found = await em.find(ConversationMessageEntity, { where: { id: In(wanted) }, order: { position: 'ASC' } });
      for (const id of wanted) {
        const message = found.find((m) => m.id === id);
        if (!message) throw new NotFoundException(`message ${id} not found`);
        if (message.conversationId !== conversationId) throw new BadRequestException(`message ${id} is not a message of conversation ${conversationId}`);
      }
      return found.map((m) => m.text);
    });
    const summary = (await this.text.summarize(texts, SUMMARY_SENTENCES)).trim();
    if (!summary) throw new BadRequestException(`conversation ${conversationId} has no message text to summarize`);
    const annotation = await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      const row = await this.writer.addAnnotation(em, conversationId, { type: 'SUMMARY', text: summary, mechanism: 'AUTOMATIC' });
      await em.update(ConversationEntity, { id: conversationId }, { updatedAt: nowIso() });
      await this.outbox.append(em, 'conversations', conversationId);
      return row;
    });
    this.events.publish(new ConversationChangedEvent(conversationId, 'updated'));
    return { conversation: { id: conversationId }, annotation: { id: annotation.id } };
  }
}
