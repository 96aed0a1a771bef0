import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { UpdateFormatValueCommand } from './commands/update-format-value.command';
import { FormatDto } from './dto/asset.dto';
import { GetFormatQuery } from './queries/get-format.query';
import { FormatWire } from './wire/asset.wire';

/**
 * /format/...: one format of an asset, outside INTERFACE.md, for the SDKs' FormatApi (the
 * Pieces CLI's `modify` reads a format and writes its new content back). The SDK names the
 * content flag `transferable`; `transferables` is accepted too.
 */
@ApiTags('Format')
@Controller('format')
export class FormatController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('update/value')
  @HttpCode(200)
  @ApiOperation({ operationId: 'formatUpdateValue', summary: "Replace a format's content (the asset is updated, reindexed and announced)" })
  @ApiBody({ type: FormatDto, required: false })
  updateValue(@Body() format: FormatDto, @Flag('transferable') transferable?: boolean, @Flag('transferables') transferables?: boolean): Promise<FormatWire> {
    return this.commands.execute(new UpdateFormatValueCommand(format, withContent(transferable ?? transferables)));
  }

  @Get(':format')
  @ApiOperation({ operationId: 'formatSnapshot', summary: 'One format (404 when unknown, also once its asset is deleted)' })
  get(
    @Param('format', uuidParam('format')) format: string,
    @Flag('transferable') transferable?: boolean,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatWire> {
    return this.queries.execute(new GetFormatQuery(format, withContent(transferable ?? transferables)));
  }
}
