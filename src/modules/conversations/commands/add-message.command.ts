import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, MessageInput } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * Appends one message to a live conversation (404 unknown, 410 deleted): how the qgpt stream
 * stores each question and answer. With `name`, a conversation that has no name yet is named
 * so (a chat its client created without one is named after its first question); a name given
 * meanwhile wins.
 */
export class AddMessageCommand extends Command<void> {
  constructor(
    readonly conversationId: string,
    readonly message: MessageInput,
    readonly name?: string,
  ) {
    super();
  }
}

@CommandHandler(AddMessageCommand)
export class AddMessageHandler implements ICommandHandler<AddMessageCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId, message, name }: AddMessageCommand): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      await this.writer.addMessages(em, conversationId, [message]);
      if (name) await this.writer.nameIfUnnamed(em, conversationId, name);
      changed({ id: conversationId, change: 'updated' });
    });
  }
}
