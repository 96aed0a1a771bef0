import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { ChangeConversationLinkCommand } from './commands/change-conversation-link.command';
import { IncrementConversationScoresCommand } from './commands/increment-conversation-scores.command';
import { RenameConversationCommand } from './commands/rename-conversation.command';
import { SummarizeConversationCommand } from './commands/summarize-conversation.command';
import { UpdateConversationCommand } from './commands/update-conversation.command';
import { LinkKind } from './conversation-links';
import { ConversationSummarizeInputDto } from './dto/conversation-summarize-input.dto';
import { ConversationDto } from './dto/conversation.dto';
import { SeededScoreIncrementDto } from '../../common/wire/dto/seeded-score-increment.dto';
import { GetConversationMessagesQuery } from './queries/get-conversation-messages.query';
import { GetConversationQuery } from './queries/get-conversation.query';
import { ConversationMessagesWire, ConversationSummarizeOutputWire, ConversationWire } from './wire/conversation.wire';

/**
 * /conversation/...: one conversation, its messages, names, summaries, scores and links.
 * Link routes answer 204, are idempotent and answer 404 for unknown ids; anchors and
 * assets are unlinked under both spellings (`.../delete/...` of the core interface and
 * `.../disassociate/...` of current clients).
 */
@ApiTags('Conversation')
@Controller('conversation')
export class ConversationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversationUpdate',
    summary: 'Update a conversation from the whole Conversation (name, type, favorited, annotations, message order)',
  })
  @ApiBody({ type: ConversationDto, required: false })
  update(
    @Body() conversation: ConversationDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationWire> {
    void transferables;
    return this.commands.execute(new UpdateConversationCommand(conversation));
  }

  @Get(':conversation')
  @ApiOperation({ operationId: 'conversationGetSpecificConversation', summary: 'One conversation (410 once deleted)' })
  get(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationWire> {
    void transferables;
    return this.queries.execute(new GetConversationQuery(conversation));
  }

  @Get(':conversation/messages')
  @ApiOperation({
    operationId: 'conversationSpecificConversationMessages',
    summary: 'The messages of a conversation, in thread order',
  })
  messages(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationMessagesWire> {
    return this.queries.execute(new GetConversationMessagesQuery(conversation, withContent(transferables)));
  }

  @Post(':conversation/rename')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversationSpecificConversationRename',
    summary: 'Name a conversation from its content',
  })
  rename(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationWire> {
    void transferables;
    return this.commands.execute(new RenameConversationCommand(conversation));
  }

  @Post(':conversation/summarize')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversationSummarize',
    summary: 'Summarize a conversation (or the given messages) into a SUMMARY annotation',
  })
  @ApiBody({ type: ConversationSummarizeInputDto, required: false })
  summarize(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Body() input: ConversationSummarizeInputDto,
  ): Promise<ConversationSummarizeOutputWire> {
    return this.commands.execute(new SummarizeConversationCommand(conversation, input));
  }

  @Post(':conversation/scores/increment')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationScoresIncrement',
    summary: 'Increment the score counters of a conversation',
  })
  @ApiBody({ type: SeededScoreIncrementDto, required: false })
  @ApiNoContentResponse({ description: 'incremented' })
  incrementScores(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Body() increment: SeededScoreIncrementDto,
  ): Promise<void> {
    return this.commands.execute(new IncrementConversationScoresCommand(conversation, increment));
  }

  @Post(':conversation/anchors/associate/:anchor')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationAssociateAnchor', summary: 'Link an anchor' })
  @ApiNoContentResponse({ description: 'linked' })
  linkAnchor(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('anchor') anchor: string,
  ): Promise<void> {
    return this.link(conversation, 'anchor', anchor, true);
  }

  @Post(':conversation/anchors/delete/:anchor')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationDisassociateAnchor', summary: 'Unlink an anchor' })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkAnchor(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('anchor') anchor: string,
  ): Promise<void> {
    return this.link(conversation, 'anchor', anchor, false);
  }

  @Post(':conversation/anchors/disassociate/:anchor')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationDisassociateAnchorCurrent',
    summary: 'Unlink an anchor (the spelling of current clients)',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkAnchorCurrent(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('anchor') anchor: string,
  ): Promise<void> {
    return this.link(conversation, 'anchor', anchor, false);
  }

  @Post(':conversation/assets/associate/:asset')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationAssociateAsset', summary: 'Link an asset' })
  @ApiNoContentResponse({ description: 'linked' })
  linkAsset(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    return this.link(conversation, 'asset', asset, true);
  }

  @Post(':conversation/assets/delete/:asset')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationDisassociateAsset', summary: 'Unlink an asset' })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkAsset(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    return this.link(conversation, 'asset', asset, false);
  }

  @Post(':conversation/assets/disassociate/:asset')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationDisassociateAssetCurrent',
    summary: 'Unlink an asset (the spelling of current clients)',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkAssetCurrent(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    return this.link(conversation, 'asset', asset, false);
  }

  @Post(':conversation/grounding/temporal_range/workstreams/associate/:range')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationAssociateGroundingTemporalRangeWorkstream',
    summary: 'Link a temporal range (workstream) as grounding',
  })
  @ApiNoContentResponse({ description: 'linked' })
  linkRange(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('range') range: string,
  ): Promise<void> {
    return this.link(conversation, 'range', range, true);
  }

  @Post(':conversation/grounding/temporal_range/workstreams/disassociate/:range')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationDisassociateGroundingTemporalRangeWorkstream',
    summary: 'Unlink a temporal range (workstream) as grounding',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkRange(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('range') range: string,
  ): Promise<void> {
    return this.link(conversation, 'range', range, false);
  }

  @Post(':conversation/websites/associate/:website')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationAssociateWebsite', summary: 'Link a website' })
  @ApiNoContentResponse({ description: 'linked' })
  linkWebsite(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('website') website: string,
  ): Promise<void> {
    return this.link(conversation, 'website', website, true);
  }

  @Post(':conversation/websites/disassociate/:website')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationDisassociateWebsite', summary: 'Unlink a website' })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkWebsite(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('website') website: string,
  ): Promise<void> {
    return this.link(conversation, 'website', website, false);
  }

  @Post(':conversation/workstream_summaries/associate/:workstream_summary')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationAssociateWorkstreamSummary', summary: 'Link a workstream summary' })
  @ApiNoContentResponse({ description: 'linked' })
  linkWorkstreamSummary(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('workstream_summary') workstreamSummary: string,
  ): Promise<void> {
    return this.link(conversation, 'workstream_summary', workstreamSummary, true);
  }

  @Post(':conversation/workstream_summaries/disassociate/:workstream_summary')
  @HttpCode(204)
  @ApiOperation({ operationId: 'conversationDisassociateWorkstreamSummary', summary: 'Unlink a workstream summary' })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkWorkstreamSummary(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('workstream_summary') workstreamSummary: string,
  ): Promise<void> {
    return this.link(conversation, 'workstream_summary', workstreamSummary, false);
  }

  @Post(':conversation/grounding/messages/associate/:message')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationGroundingMessagesAssociateMessage',
    summary: 'Link a message as grounding',
  })
  @ApiNoContentResponse({ description: 'linked' })
  linkMessage(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('message') message: string,
  ): Promise<void> {
    return this.link(conversation, 'message', message, true);
  }

  @Post(':conversation/grounding/messages/disassociate/:message')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationGroundingMessagesDisassociateMessage',
    summary: 'Unlink a message as grounding',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  unlinkMessage(
    @Param('conversation', uuidParam('conversation')) conversation: string,
    @Param('message') message: string,
  ): Promise<void> {
    return this.link(conversation, 'message', message, false);
  }

  private link(conversation: string, kind: LinkKind, target: string, linked: boolean): Promise<void> {
    return this.commands.execute(new ChangeConversationLinkCommand(conversation, kind, target, linked));
  }
}
