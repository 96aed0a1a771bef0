import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { AnnotationDto } from '../assets/dto/asset.dto';
import { SeededRecordAnnotationDto } from '../assets/dto/records.dto';
import { AnnotationsWire } from '../assets/wire/asset.wire';
import { ChangeAnchorCommand } from './commands/change-anchor.command';
import { ChangeAnnotationCommand } from './commands/change-annotation.command';
import { ChangeConversationLinkCommand } from './commands/change-conversation-link.command';
import { ChangeRangeCommand } from './commands/change-range.command';
import { CreateAnchorCommand } from './commands/create-anchor.command';
import { AnchorUpdateDto, RangeUpdateDto, SeededRangeDto } from './dto/records.dto';
import { ConversationSeededAnchorDto } from './dto/seeded-conversation.dto';
import { GetAnnotationQuery } from './queries/get-annotation.query';
import { GetGroundingRecordQuery } from './queries/get-grounding-record.query';
import { ListGroundingRecordsQuery } from './queries/list-grounding-records.query';
import { AnnotationOfRecordWire } from './wire/conversation.wire';
import {
  AnchorPointRecordWire,
  AnchorPointRecordsWire,
  AnchorRecordWire,
  AnchorRecordsWire,
  RangeWire,
  RangesWire,
} from './wire/records.wire';

/**
 * Records conversations are grounded in, as collections and records of their own, beyond
 * the core interface: anchors and their points (the SDKs' AnchorsApi, AnchorApi, AnchorPointsApi,
 * AnchorPointApi; `pieces ask -f` and Obsidian's context picker create one per file), ranges
 * (RangesApi, RangeApi: the Python SDK grounds each chat in the last minutes), and annotations
 * of conversations or assets (AnnotationsApi, AnnotationApi: Obsidian's annotation editor,
 * `pieces chats` reads each summary). Each is linked both ways: it lists the conversations it
 * grounds, each conversation lists it. `transferables` is accepted (they have no content to omit).
 */
@ApiTags('Conversation')
@Controller()
export class RecordsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('anchors')
  @ApiOperation({
    operationId: 'anchorsSnapshot',
    summary: 'Every anchor, most recent first, each with its conversations (streamed)',
  })
  @ApiOkResponse({ type: AnchorRecordsWire })
  anchors(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    void transferables;
    return this.queries.execute(new ListGroundingRecordsQuery('anchors'));
  }

  @Post('anchors/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'anchorsCreateNewAnchor',
    summary: 'An anchor for a file or directory (the existing one for a path already anchored)',
  })
  @ApiBody({ type: ConversationSeededAnchorDto, required: false })
  @ApiOkResponse({ type: AnchorRecordWire })
  createAnchor(
    @Body() seed: ConversationSeededAnchorDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AnchorRecordWire> {
    void transferables;
    return this.commands.execute(new CreateAnchorCommand(seed));
  }

  @Post('anchors/:anchor/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'anchorsDeleteSpecificAnchor',
    summary: 'Delete an anchor and its links to conversations',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  async deleteAnchor(@Param('anchor', uuidParam('anchor')) anchor: string): Promise<void> {
    await this.commands.execute(new ChangeAnchorCommand({ kind: 'delete', id: anchor }));
  }

  @Get('anchor/:anchor')
  @ApiOperation({
    operationId: 'anchorSpecificAnchorSnapshot',
    summary: 'One anchor with its conversations (404 when unknown)',
  })
  @ApiOkResponse({ type: AnchorRecordWire })
  anchor(
    @Param('anchor', uuidParam('anchor')) anchor: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AnchorRecordWire> {
    void transferables;
    return this.queries.execute(new GetGroundingRecordQuery('anchor', anchor)) as Promise<AnchorRecordWire>;
  }

  @Post('anchor/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'anchorUpdate',
    summary: 'A round-tripped Anchor: its name, type, watch flag and the path of its one point',
  })
  @ApiBody({ type: AnchorUpdateDto, required: false })
  @ApiOkResponse({ type: AnchorRecordWire })
  updateAnchor(
    @Body() anchor: AnchorUpdateDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AnchorRecordWire> {
    void transferables;
    return this.commands.execute(new ChangeAnchorCommand({ kind: 'update', anchor })) as Promise<AnchorRecordWire>;
  }

  @Post('anchor/:anchor/rename')
  @HttpCode(200)
  @ApiOperation({ operationId: 'anchorRename', summary: 'Names the anchor after the last segment of its path' })
  @ApiOkResponse({ type: AnchorRecordWire })
  renameAnchor(@Param('anchor', uuidParam('anchor')) anchor: string): Promise<AnchorRecordWire> {
    return this.commands.execute(new ChangeAnchorCommand({ kind: 'rename', id: anchor })) as Promise<AnchorRecordWire>;
  }

  @Post('anchor/:anchor/conversations/associate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'anchorAssociateConversation',
    summary: 'Link the anchor to a conversation (as POST /conversation/{conversation}/anchors/associate/{anchor})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateAnchor(
    @Param('anchor', uuidParam('anchor')) anchor: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'anchor', anchor, true));
  }

  @Post('anchor/:anchor/conversations/disassociate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'anchorDisassociateConversation',
    summary: 'Unlink the anchor from a conversation; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateAnchor(
    @Param('anchor', uuidParam('anchor')) anchor: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'anchor', anchor, false));
  }

  @Get('anchor_points')
  @ApiOperation({
    operationId: 'anchorPointsSnapshot',
    summary: "Every anchor's point (its path), most recent first (streamed)",
  })
  @ApiOkResponse({ type: AnchorPointRecordsWire })
  anchorPoints(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    void transferables;
    return this.queries.execute(new ListGroundingRecordsQuery('anchor_points'));
  }

  @Get('anchor_point/:anchor_point')
  @ApiOperation({
    operationId: 'anchorPointSpecificAnchorPointSnapshot',
    summary: "One anchor's point (404 when unknown)",
  })
  @ApiOkResponse({ type: AnchorPointRecordWire })
  anchorPoint(
    @Param('anchor_point', uuidParam('anchor_point')) point: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AnchorPointRecordWire> {
    void transferables;
    return this.queries.execute(new GetGroundingRecordQuery('anchor_point', point)) as Promise<AnchorPointRecordWire>;
  }

  @Get('ranges')
  @ApiOperation({
    operationId: 'rangesSnapshot',
    summary: 'Every range, most recent first, each with its conversations (streamed)',
  })
  @ApiOkResponse({ type: RangesWire })
  ranges(): Promise<StreamableFile> {
    return this.queries.execute(new ListGroundingRecordsQuery('ranges'));
  }

  @Post('ranges/create')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rangesCreateNewRange', summary: 'A span of time, grounding `conversation` when given' })
  @ApiBody({ type: SeededRangeDto, required: false })
  @ApiOkResponse({ type: RangeWire })
  createRange(@Body() seed: SeededRangeDto): Promise<RangeWire> {
    return this.commands.execute(new ChangeRangeCommand({ kind: 'create', seed })) as Promise<RangeWire>;
  }

  @Post('ranges/:range/delete')
  @HttpCode(204)
  @ApiOperation({ operationId: 'rangesDeleteSpecificRange', summary: 'Delete a range and the groundings in it' })
  @ApiNoContentResponse({ description: 'deleted' })
  async deleteRange(@Param('range', uuidParam('range')) range: string): Promise<void> {
    await this.commands.execute(new ChangeRangeCommand({ kind: 'delete', id: range }));
  }

  @Get('range/:range')
  @ApiOperation({
    operationId: 'rangesSpecificRangeSnapshot',
    summary: 'One range with its conversations (404 when unknown)',
  })
  @ApiOkResponse({ type: RangeWire })
  range(@Param('range', uuidParam('range')) range: string): Promise<RangeWire> {
    return this.queries.execute(new GetGroundingRecordQuery('range', range)) as Promise<RangeWire>;
  }

  @Post('range/update')
  @HttpCode(200)
  @ApiOperation({ operationId: 'rangeUpdate', summary: 'A round-tripped Range: its ends and `between`' })
  @ApiBody({ type: RangeUpdateDto, required: false })
  @ApiOkResponse({ type: RangeWire })
  updateRange(@Body() range: RangeUpdateDto): Promise<RangeWire> {
    return this.commands.execute(new ChangeRangeCommand({ kind: 'update', range })) as Promise<RangeWire>;
  }

  @Post('range/:range/conversations/grounding/temporal_range/workstreams/associate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'rangeAssociateConversationGroundingTemporalRangeWorkstreams',
    summary:
      'Ground a conversation in the range (as POST /conversation/{conversation}/grounding/temporal_range/workstreams/associate/{range})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateRange(
    @Param('range', uuidParam('range')) range: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'range', range, true));
  }

  @Post('range/:range/conversations/grounding/temporal_range/workstreams/disassociate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'rangeDisassociateConversationGroundingTemporalRangeWorkstreams',
    summary: 'Stop grounding a conversation in the range; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateRange(
    @Param('range', uuidParam('range')) range: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'range', range, false));
  }

  @Get('annotations')
  @ApiOperation({
    operationId: 'annotationsSnapshot',
    summary: 'Every annotation of a live asset or conversation, most recent first (streamed)',
  })
  @ApiOkResponse({ type: AnnotationsWire })
  annotations(): Promise<StreamableFile> {
    return this.queries.execute(new ListGroundingRecordsQuery('annotations'));
  }

  @Post('annotations/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'annotationsCreateNewAnnotation',
    summary: 'An annotation of the asset or the conversation the seed names',
  })
  @ApiBody({ type: SeededRecordAnnotationDto, required: false })
  @ApiOkResponse({ type: AnnotationOfRecordWire })
  createAnnotation(@Body() seed: SeededRecordAnnotationDto): Promise<AnnotationOfRecordWire> {
    return this.commands.execute(
      new ChangeAnnotationCommand({ kind: 'create', seed }),
    ) as Promise<AnnotationOfRecordWire>;
  }

  @Post('annotations/:annotation/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'annotationsDeleteSpecificAnnotation',
    summary: 'Delete an annotation (its asset or conversation is announced)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  async deleteAnnotation(@Param('annotation', uuidParam('annotation')) annotation: string): Promise<void> {
    await this.commands.execute(new ChangeAnnotationCommand({ kind: 'delete', id: annotation }));
  }

  @Get('annotation/:annotation')
  @ApiOperation({
    operationId: 'annotationSpecificAnnotationSnapshot',
    summary: 'One annotation of an asset or a conversation',
  })
  annotation(@Param('annotation', uuidParam('annotation')) annotation: string): Promise<AnnotationOfRecordWire> {
    return this.queries.execute(new GetAnnotationQuery(annotation));
  }

  @Post('annotation/update')
  @HttpCode(200)
  @ApiOperation({ operationId: 'annotationUpdate', summary: 'A round-tripped Annotation: its type and text' })
  @ApiBody({ type: AnnotationDto, required: false })
  @ApiOkResponse({ type: AnnotationOfRecordWire })
  updateAnnotation(@Body() annotation: AnnotationDto): Promise<AnnotationOfRecordWire> {
    return this.commands.execute(
      new ChangeAnnotationCommand({ kind: 'update', annotation }),
    ) as Promise<AnnotationOfRecordWire>;
  }
}
