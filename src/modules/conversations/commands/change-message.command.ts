import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { textOf } from '../../assets/asset-text';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, checkText } from '../conversation.writer';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationMessageValueDto } from '../dto/message.dto';
import { MessageUpdateDto } from '../dto/records.dto';
import { ConversationMessageWire, conversationMessageWire } from '../wire/conversation.wire';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * A change to one message: its new text (POST /message/update/value), its text and sentiment
 * (POST /message/update: the round-tripped message; what it leaves out stays) or its deletion
 * (POST /messages/{message}/delete: a tombstone, so the conversation's `messages.indices` shows
 * -1). The conversation is updated and announced like any change of it.
 */
export class ChangeMessageCommand extends Command<ConversationMessageWire | void> {
  constructor(
    readonly change:
      | { kind: 'value'; message: ConversationMessageValueDto | undefined; withContent: boolean }
      | { kind: 'update'; message: MessageUpdateDto | undefined; withContent: boolean }
      | { kind: 'delete'; messageId: string },
  ) {
    super();
  }
}

@CommandHandler(ChangeMessageCommand)
export class ChangeMessageHandler implements ICommandHandler<ChangeMessageCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ change }: ChangeMessageCommand): Promise<ConversationMessageWire | void> {
    let text: string | undefined;
    if (change.kind !== 'delete') {
      if (!change.message) throw new InvalidInput('a ConversationMessage body is required');
      text = change.message.fragment ? textOf(change.message.fragment.string) : undefined;
      if (text === undefined && change.kind === 'value')
        throw new InvalidInput('the new text goes in fragment.string.raw');
      if (text !== undefined) checkText(text, 'message text');
    }
    const messageId = change.kind === 'delete' ? change.messageId : change.message!.id;
    const message = await this.uow.run(async ({ em, changed }) => {
      const current = await this.reader.message(em, messageId);
      const now = nowIso();
      const patch: Partial<ConversationMessageEntity> =
        change.kind === 'delete'
          ? { deletedAt: now, updatedAt: now }
          : {
              ...(text !== undefined ? { text } : {}),
              ...(change.kind === 'update' && change.message!.sentiment
                ? { sentiment: change.message!.sentiment }
                : {}),
              updatedAt: now,
            };
      await this.writer.updateMessage(em, messageId, patch);
      await this.writer.updateConversation(em, current.conversationId, { updatedAt: now });
      changed({ id: current.conversationId, change: 'updated' });
      return { ...current, ...patch } as ConversationMessageEntity;
    });
    if (change.kind !== 'delete') return conversationMessageWire(message, change.withContent);
  }
}
