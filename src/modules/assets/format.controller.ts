import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { ReclassifyFormatCommand } from './commands/reclassify-format.command';
import { UpdateFormatValueCommand } from './commands/update-format-value.command';
import { FormatReclassificationDto } from './dto/asset-reclassification.dto';
import { FormatDto } from './dto/asset.dto';
import { GetFormatQuery } from './queries/get-format.query';
import { ListFormatsQuery } from './queries/list-formats.query';
import { FormatWire, FormatsWire } from './wire/asset.wire';

/**
 * /format/... and /formats/...: the formats of assets, beyond the core interface, for the SDKs'
 * FormatApi and FormatsApi (the Pieces CLI's `modify` reads a format and writes its new content
 * back; Obsidian relabels a format; Raycast reads an asset's content this way). The SDK names the
 * content flag `transferable` on /format/...; `transferables` is accepted too.
 */
@ApiTags('Format')
@Controller()
export class FormatController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('format/update/value')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'formatUpdateValue',
    summary: "Replace a format's content (the asset is updated, reindexed and announced)",
  })
  @ApiBody({ type: FormatDto, required: false })
  updateValue(
    @Body() format: FormatDto,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatWire> {
    return this.commands.execute(new UpdateFormatValueCommand(format, withContent(transferable ?? transferables)));
  }

  @Post('format/reclassify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'formatReclassify',
    summary:
      'Relabel one text format to the language `ext` (as /asset/reclassify does for every one); answers the format',
  })
  @ApiBody({ type: FormatReclassificationDto, required: false })
  reclassify(
    @Body() input: FormatReclassificationDto,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatWire> {
    return this.commands.execute(new ReclassifyFormatCommand(input, withContent(transferable ?? transferables)));
  }

  @Get('format/:format')
  @ApiOperation({
    operationId: 'formatSnapshot',
    summary: 'One format (404 when unknown, also once its asset is deleted)',
  })
  get(
    @Param('format', uuidParam('format')) format: string,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatWire> {
    return this.queries.execute(new GetFormatQuery(format, withContent(transferable ?? transferables)));
  }

  @Get('formats')
  @ApiOperation({
    operationId: 'formatsSnapshot',
    summary: 'Every format of every live asset, most recent asset first (streamed)',
  })
  @ApiOkResponse({ type: FormatsWire })
  list(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    return this.queries.execute(new ListFormatsQuery(withContent(transferables)));
  }

  @Get('formats/:format')
  @ApiOperation({ operationId: 'formatsSpecificFormatSnapshot', summary: 'One format (as GET /format/{format})' })
  getOne(
    @Param('format', uuidParam('format')) format: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatWire> {
    return this.queries.execute(new GetFormatQuery(format, withContent(transferables)));
  }
}
