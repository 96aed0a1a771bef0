import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { ChangeMessageCommand } from './commands/change-message.command';
import { ConversationMessageValueDto } from './dto/message.dto';
import { GetMessageQuery } from './queries/get-message.query';
import { ConversationMessageWire } from './wire/conversation.wire';

/**
 * One message, outside INTERFACE.md, for the SDKs' ConversationMessageApi and
 * ConversationMessagesApi (`pieces chat N` reads every message of a chat this way). The SDK
 * names the content flag `transferable`; `transferables` is accepted too.
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
    return (await this.commands.execute(new ChangeMessageCommand({ kind: 'value', message, withContent: withContent(transferable ?? transferables) })))!;
  }

  @Post('messages/:message/delete')
  @HttpCode(204)
  @ApiOperation({ operationId: 'messagesDeleteSpecificMessage', summary: 'Delete a message (its index becomes -1)' })
  @ApiNoContentResponse()
  async delete(@Param('message', uuidParam('message')) message: string): Promise<void> {
    await this.commands.execute(new ChangeMessageCommand({ kind: 'delete', messageId: message }));
  }
}
