import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangeConversationLinkCommand } from './commands/change-conversation-link.command';
import { Flag, uuidParam } from '../../common/wire/flags';
import { ListAssetConversationsQuery } from './queries/list-asset-conversations.query';
import { ConversationsWire } from './wire/conversation.wire';

/**
 * The other side of the links the conversations module keeps: an asset's (and a workstream
 * summary's) conversations, linked and unlinked from that side as from the conversation's.
 */
@ApiTags('Asset')
@Controller()
export class AssetConversationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('asset/:asset/conversations')
  @ApiOperation({ operationId: 'assetSpecificAssetConversations', summary: 'The conversations linked to an asset' })
  list(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationsWire> {
    void transferables;
    return this.queries.execute(new ListAssetConversationsQuery(asset));
  }

  @Post('asset/:asset/conversations/associate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetAssociateConversation',
    summary: 'Link the asset to a conversation (as POST /conversation/{conversation}/assets/associate/{asset})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associate(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'asset', asset, true));
  }

  @Post('asset/:asset/conversations/disassociate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetDisassociateConversation',
    summary: 'Unlink the asset from a conversation; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociate(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'asset', asset, false));
  }

  @Post('workstream_summary/:workstream_summary/conversations/associate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'workstreamSummaryAssociateConversation',
    summary:
      'Link the summary to a conversation (as POST /conversation/{conversation}/workstream_summaries/associate/{workstream_summary})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateSummary(
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'workstream_summary', summary, true));
  }

  @Post('workstream_summary/:workstream_summary/conversations/disassociate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'workstreamSummaryDisassociateConversation',
    summary: 'Unlink the summary from a conversation; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateSummary(
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'workstream_summary', summary, false));
  }
}
