import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { CreateAnchorCommand } from './commands/create-anchor.command';
import { ConversationSeededAnchorDto } from './dto/seeded-conversation.dto';
import { GetAnchorQuery } from './queries/get-anchor.query';
import { GetAnnotationQuery } from './queries/get-annotation.query';
import { AnnotationOfRecordWire, ConversationAnchorWire } from './wire/conversation.wire';

/**
 * Records conversations are grounded in, read one at a time, outside INTERFACE.md: anchors (the
 * SDKs' AnchorsApi / AnchorApi; `pieces ask -f` creates one per file) and annotations (the
 * AnnotationApi; `pieces chats` reads each conversation's summary this way).
 */
@ApiTags('Conversation')
@Controller()
export class RecordsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('anchors/create')
  @HttpCode(200)
  @ApiOperation({ operationId: 'anchorsCreateNewAnchor', summary: 'An anchor for a file or directory (the existing one for a path already anchored)' })
  @ApiBody({ type: ConversationSeededAnchorDto, required: false })
  createAnchor(@Body() seed: ConversationSeededAnchorDto, @Flag('transferables') transferables?: boolean): Promise<ConversationAnchorWire> {
    void transferables;
    return this.commands.execute(new CreateAnchorCommand(seed));
  }

  @Get('anchor/:anchor')
  @ApiOperation({ operationId: 'anchorSpecificAnchorSnapshot', summary: 'One anchor' })
  anchor(@Param('anchor', uuidParam('anchor')) anchor: string, @Flag('transferables') transferables?: boolean): Promise<ConversationAnchorWire> {
    void transferables;
    return this.queries.execute(new GetAnchorQuery(anchor));
  }

  @Get('annotation/:annotation')
  @ApiOperation({ operationId: 'annotationSpecificAnnotationSnapshot', summary: 'One annotation of an asset or a conversation' })
  annotation(@Param('annotation', uuidParam('annotation')) annotation: string): Promise<AnnotationOfRecordWire> {
    return this.queries.execute(new GetAnnotationQuery(annotation));
  }
}
