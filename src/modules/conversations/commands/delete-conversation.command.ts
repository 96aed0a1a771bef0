import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * Deletes a conversation's messages, annotations and links (both sides: the join rows
 * are the links) and keeps a tombstone row, so later reads answer 410 instead of 404.
 */
export class DeleteConversationCommand extends Command<void> {
  constructor(readonly conversationId: string) {
    super();
  }
}

@CommandHandler(DeleteConversationCommand)
export class DeleteConversationHandler implements ICommandHandler<DeleteConversationCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId }: DeleteConversationCommand): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      // Other conversations grounded in this one's messages lose that grounding.
      const others = await this.reader.groundedIn(em, conversationId);
      const assets = await this.reader.linkedAssetIds(em, conversationId);
      await this.writer.tombstone(em, conversationId);
      changed({ id: conversationId, change: 'deleted', assets });
      for (const other of others) changed({ id: other, change: 'updated' });
    });
  }
}
