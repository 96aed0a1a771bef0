import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { PageRequest, Paging } from '../../common/wire/paging';
import { CreateConversationFromAssetCommand } from './commands/create-conversation-from-asset.command';
import { CreateConversationCommand } from './commands/create-conversation.command';
import { DeleteConversationCommand } from './commands/delete-conversation.command';
import { SeededConversationDto } from './dto/seeded-conversation.dto';
import { ListConversationIdentifiersQuery } from './queries/list-conversation-identifiers.query';
import { ListConversationsQuery } from './queries/list-conversations.query';
import {
  ConversationWire,
  ConversationsCreateFromAssetOutputWire,
  ConversationsWire,
  FlattenedConversationsWire,
} from './wire/conversation.wire';

/** `transferables` is accepted on conversation routes; a Conversation carries no format content. */
@ApiTags('Conversations')
@Controller('conversations')
export class ConversationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversationsCreateSpecificConversation',
    summary: 'Create a conversation (type, name, initial messages, annotations, links, anchors)',
  })
  @ApiBody({ type: SeededConversationDto, required: false })
  create(
    @Body() seed: SeededConversationDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationWire> {
    void transferables;
    return this.commands.execute(new CreateConversationCommand(seed));
  }

  @Post('create/from_asset/:asset')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversationsCreateFromAsset',
    summary: 'Create a conversation about an asset, opened by an assistant message describing it',
  })
  createFromAsset(@Param('asset', uuidParam('asset')) asset: string): Promise<ConversationsCreateFromAssetOutputWire> {
    return this.commands.execute(new CreateConversationFromAssetCommand(asset));
  }

  @Post(':conversation/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'conversationsDeleteSpecificConversation',
    summary: 'Delete a conversation with its messages and links (later reads answer 410)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  delete(@Param('conversation', uuidParam('conversation')) conversation: string): Promise<void> {
    return this.commands.execute(new DeleteConversationCommand(conversation));
  }

  @Get()
  @ApiOperation({
    operationId: 'conversationsSnapshot',
    summary:
      'Every conversation, most recent first, streamed (or one page of them with the `limit`/`cursor` extension)',
  })
  @ApiOkResponse({ type: ConversationsWire })
  list(
    @Flag('transferables') transferables?: boolean,
    @Paging() page?: PageRequest | null,
  ): Promise<StreamableFile | ConversationsWire> {
    void transferables;
    return this.queries.execute(new ListConversationsQuery(page ?? null));
  }

  @Get('identifiers')
  @ApiOperation({
    operationId: 'conversationsIdentifiersSnapshot',
    summary:
      'Ids of every conversation, most recent first, streamed (or one page of them with the `limit`/`cursor` extension)',
  })
  @ApiOkResponse({ type: FlattenedConversationsWire })
  identifiers(@Paging() page?: PageRequest | null): Promise<StreamableFile | FlattenedConversationsWire> {
    return this.queries.execute(new ListConversationIdentifiersQuery(page ?? null));
  }
}
