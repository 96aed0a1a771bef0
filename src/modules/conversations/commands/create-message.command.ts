import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { textOf } from '../../assets/asset-text';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { SeededMessageDto } from '../dto/records.dto';
import { ConversationMessageWire, conversationMessageWire } from '../wire/conversation.wire';

/**
 * POST /messages/create: a message appended to the conversation the seed names (`conversation.id`;
 * 404 unknown, 410 deleted), as the copilot SDKs store each question and each answer. The
 * conversation is updated and announced; the message is read back by GET /message/{message} and
 * listed in the conversation's `messages` (its index the next in the thread).
 */
export class CreateMessageCommand extends Command<ConversationMessageWire> {
  constructor(
    readonly seed: SeededMessageDto | undefined,
    readonly withContent: boolean,
  ) {
    super();
  }
}

@CommandHandler(CreateMessageCommand)
export class CreateMessageHandler implements ICommandHandler<CreateMessageCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ seed, withContent }: CreateMessageCommand): Promise<ConversationMessageWire> {
    if (!seed) throw new InvalidInput('a SeededConversationMessage body is required');
    const conversationId = seed.conversation?.id;
    if (!conversationId) throw new InvalidInput('conversation.id must name the conversation the message belongs to');
    const text = textOf(seed.fragment.string);
    if (text === undefined) throw new InvalidInput('the text goes in fragment.string.raw');
    const message = await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      const [row] = await this.writer.addMessages(em, conversationId, [
        {
          role: seed.role,
          text,
          sentiment: seed.sentiment,
          createdAt: seed.created?.value ? new Date(seed.created.value).toISOString() : undefined,
        },
      ]);
      await this.writer.touchConversations(em, [conversationId]);
      changed({ id: conversationId, change: 'updated' });
      return row;
    });
    return conversationMessageWire(message, withContent);
  }
}
