import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { ListAssetConversationsQuery } from './queries/list-asset-conversations.query';
import { ConversationsWire } from './wire/conversation.wire';

/** The asset side of conversation<->asset links; the links belong to the conversations module. */
@ApiTags('Asset')
@Controller('asset')
export class AssetConversationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':asset/conversations')
  @ApiOperation({ operationId: 'assetSpecificAssetConversations', summary: 'The conversations linked to an asset' })
  list(@Param('asset', uuidParam('asset')) asset: string, @Flag('transferables') transferables?: boolean): Promise<ConversationsWire> {
    void transferables;
    return this.queries.execute(new ListAssetConversationsQuery(asset));
  }
}
