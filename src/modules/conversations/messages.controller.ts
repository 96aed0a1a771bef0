import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { ChangeMessageCommand } from './commands/change-message.command';
import { CreateMessageCommand } from './commands/create-message.command';
import { ConversationMessageValueDto } from './dto/message.dto';
import { MessageUpdateDto, SeededMessageDto } from './dto/records.dto';
import { GetMessageQuery } from './queries/get-message.query';
import { ListGroundingRecordsQuery } from './queries/list-grounding-records.query';
import { ConversationMessageWire } from './wire/conversation.wire';
import { MessagesWire } from './wire/records.wire';

/**
 * Messages, beyond the core interface, for the SDKs' ConversationMessageApi and
 * ConversationMessagesApi (`pieces chat N` reads every message of a chat this way; the copilot
 * SDKs store each question and answer with POST /messages/create). The SDK names the content
 * flag `transferable` on the single-message routes; `transferables` is accepted too.
 */
@ApiTags('Conversation')
@Controller()
export class MessagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('message/:message')
  @ApiOperation({ operationId: 'messageSpecificMessageSnapshot', summary: 'One message (410 once deleted)' })
  get(
    @Param('message', uuidParam('message')) message: string,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationMessageWire> {
    return this.queries.execute(new GetMessageQuery(message, withContent(transferable ?? transferables)));
  }

  @Post('message/update/value')
  @HttpCode(200)
  @ApiOperation({ operationId: 'messageUpdateValue', summary: "Replace a message's text" })
  @ApiBody({ type: ConversationMessageValueDto, required: false })
  async updateValue(
    @Body() message: ConversationMessageValueDto,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationMessageWire> {
    return (await this.commands.execute(
      new ChangeMessageCommand({ kind: 'value', message, withContent: withContent(transferable ?? transferables) }),
    ))!;
  }

  @Get('messages')
  @ApiOperation({
    operationId: 'messagesSnapshot',
    summary: 'Every message of a live conversation, most recent first (streamed)',
  })
  @ApiOkResponse({ type: MessagesWire })
  list(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    return this.queries.execute(new ListGroundingRecordsQuery('messages', withContent(transferables)));
  }

  @Post('messages/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'messagesCreateSpecificMessage',
    summary: 'Append a message to the conversation `conversation.id` names',
  })
  @ApiBody({ type: SeededMessageDto, required: false })
  @ApiOkResponse({ type: ConversationMessageWire })
  create(
    @Body() seed: SeededMessageDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationMessageWire> {
    return this.commands.execute(new CreateMessageCommand(seed, withContent(transferables)));
  }

  @Post('message/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'messageSpecificMessageUpdate',
    summary: 'A round-tripped message: its text (when `fragment` is given) and sentiment',
  })
  @ApiBody({ type: MessageUpdateDto, required: false })
  async update(
    @Body() message: MessageUpdateDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ConversationMessageWire> {
    return (await this.commands.execute(
      new ChangeMessageCommand({ kind: 'update', message, withContent: withContent(transferables) }),
    ))!;
  }

  @Post('messages/:message/delete')
  @HttpCode(204)
  @ApiOperation({ operationId: 'messagesDeleteSpecificMessage', summary: 'Delete a message (its index becomes -1)' })
  @ApiNoContentResponse()
  async delete(@Param('message', uuidParam('message')) message: string): Promise<void> {
    await this.commands.execute(new ChangeMessageCommand({ kind: 'delete', messageId: message }));
  }
}
