import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../../assets/asset.reader';
import { ConversationReader } from '../conversation.reader';
import { ConversationsWire, conversationWire } from '../wire/conversation.wire';

/** The live conversations linked to an asset, most recent first (404 unknown / 410 deleted asset). */
export class ListAssetConversationsQuery extends Query<ConversationsWire> {
  constructor(readonly assetId: string) {
    super();
  }
}

@QueryHandler(ListAssetConversationsQuery)
export class ListAssetConversationsHandler implements IQueryHandler<ListAssetConversationsQuery> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
    private readonly reader: ConversationReader,
  ) {}

  execute({ assetId }: ListAssetConversationsQuery): Promise<ConversationsWire> {
    return this.db.read(async (em) => {
      await this.assets.require(em, assetId);
      const conversations = await this.reader.ofAsset(em, assetId);
      return { iterable: (await this.reader.aggregates(em, conversations)).map(conversationWire) };
    });
  }
}
