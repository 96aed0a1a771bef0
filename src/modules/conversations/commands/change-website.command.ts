import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { CreateLinkRecordCommand } from '../../assets/commands/create-link-record.command';
import { DeleteLinkRecordCommand } from '../../assets/commands/delete-link-record.command';
import { UpdateLinkRecordCommand } from '../../assets/commands/update-link-record.command';
import { SeededWebsiteDto, WebsiteUpdateDto } from '../../assets/dto/records.dto';
import { WebsiteRecordWire, flattenedIds } from '../../assets/wire/records.wire';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { ChangeConversationLinkCommand } from './change-conversation-link.command';

export type WebsiteChange =
  | { kind: 'create'; seed: SeededWebsiteDto | undefined }
  | { kind: 'update'; website: WebsiteUpdateDto | undefined }
  | { kind: 'delete'; id: string };

/**
 * A website created, changed or deleted (POST /websites/create, /website/update,
 * /websites/{website}/delete), with both sides of its links: the website record and its links to
 * assets are the assets module's (its commands), its links to conversations this module's. A
 * seed's `conversation` is linked (404 unknown, 410 deleted); a change announces the
 * conversations that show the website; a deletion removes their links first, announcing them.
 * Answers the website with its live assets and conversations.
 */
export class ChangeWebsiteCommand extends Command<WebsiteRecordWire | void> {
  constructor(readonly change: WebsiteChange) {
    super();
  }
}

@CommandHandler(ChangeWebsiteCommand)
export class ChangeWebsiteHandler implements ICommandHandler<ChangeWebsiteCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ change }: ChangeWebsiteCommand): Promise<WebsiteRecordWire | void> {
    if (change.kind === 'delete') {
      await this.announceConversations(change.id, true);
      await this.commands.execute(new DeleteLinkRecordCommand('website', change.id));
      return;
    }
    if (change.kind === 'create') {
      if (change.seed?.conversation) await this.db.read((em) => this.reader.require(em, change.seed!.conversation!));
      const website = (await this.commands.execute(
        new CreateLinkRecordCommand('website', change.seed),
      )) as WebsiteRecordWire;
      if (change.seed?.conversation)
        await this.commands.execute(
          new ChangeConversationLinkCommand(change.seed.conversation, 'website', website.id, true),
        );
      return this.withConversations(website);
    }
    const website = (await this.commands.execute(
      new UpdateLinkRecordCommand('website', change.website),
    )) as WebsiteRecordWire;
    await this.announceConversations(website.id, false);
    return this.withConversations(website);
  }

  /** Announces the live conversations that show the website (each touched); `unlink` removes their links first. */
  private async announceConversations(websiteId: string, unlink: boolean): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      const ids = (await this.reader.liveConversationsLinkedTo(em, 'website', [websiteId])).get(websiteId) ?? [];
      if (unlink) await this.writer.removeLinksTo(em, 'website', websiteId);
      await this.writer.touchConversations(em, ids);
      for (const id of ids) changed({ id, change: 'updated' });
    });
  }

  private async withConversations(website: WebsiteRecordWire): Promise<WebsiteRecordWire> {
    const ids = await this.db.read(
      async (em) => (await this.reader.liveConversationsLinkedTo(em, 'website', [website.id])).get(website.id) ?? [],
    );
    return { ...website, conversations: flattenedIds(ids) };
  }
}
