import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetReader } from '../../assets/asset.reader';
import { TEXT_GENERATOR, TextGenerator } from '../../intelligence/text/text-generator';
import { ConversationWriter } from '../conversation.writer';
import { ConversationsCreateFromAssetOutputWire } from '../wire/conversation.wire';
import { newConversation } from './create-conversation.command';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

/**
 * Starts a COPILOT conversation about an asset: linked to it, named after it, and opened by
 * an ASSISTANT message describing it (what it is, its language, its key parts).
 */
export class CreateConversationFromAssetCommand extends Command<ConversationsCreateFromAssetOutputWire> {
  constructor(readonly assetId: string) {
    super();
  }
}

@CommandHandler(CreateConversationFromAssetCommand)
export class CreateConversationFromAssetHandler implements ICommandHandler<CreateConversationFromAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
    private readonly writer: ConversationWriter,
    @Inject(TEXT_GENERATOR) private readonly text: TextGenerator,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ assetId }: CreateConversationFromAssetCommand): Promise<ConversationsCreateFromAssetOutputWire> {
    // Describe outside the write transaction (a model may take seconds), then write.
    const aggregate = await this.db.read((em) => this.assets.one(em, assetId));
    const original = aggregate.formats[0];
    const description = await this.text.describeAsset({
      name: aggregate.asset.name,
      text: original?.raw ?? '',
      generic: original?.generic ?? 'UNKNOWN',
      specific: original?.specific ?? 'UNKNOWN',
    });
    const id = randomUUID();
    await this.uow.run(async ({ em, changed }) => {
      const asset = await this.assets.require(em, assetId);
      await this.writer.insertConversation(em, newConversation(id, { type: 'COPILOT', name: asset.name }));
      await this.writer.link(em, 'asset', id, assetId, nowIso());
      await this.writer.addMessages(em, id, [{ role: 'ASSISTANT', text: description }]);
      changed({ id, change: 'created', assets: [assetId] });
    });
    return { conversation: { id } };
  }
}
