import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { LinkKind } from '../conversation-links';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * Associates (`linked` true) or disassociates a conversation and another record: one join
 * row, written in one transaction, so both sides agree. Idempotent; 404 for unknown ids.
 */
export class ChangeConversationLinkCommand extends Command<void> {
  constructor(
    readonly conversationId: string,
    readonly kind: LinkKind,
    readonly targetId: string,
    readonly linked: boolean,
  ) {
    super();
  }
}

@CommandHandler(ChangeConversationLinkCommand)
export class ChangeConversationLinkHandler implements ICommandHandler<ChangeConversationLinkCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId, kind, targetId, linked }: ChangeConversationLinkCommand): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      await this.reader.requireLinkTarget(em, kind, targetId, linked);
      if (!(await this.writer.changeLink(em, kind, conversationId, targetId, linked))) return;
      // An asset's conversations changed too (GET /asset/{id}/conversations).
      changed({ id: conversationId, change: 'updated', assets: kind === 'asset' ? [targetId] : [] });
    });
  }
}
