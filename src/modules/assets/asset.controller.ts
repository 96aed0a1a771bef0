import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { UpdateAssetCommand } from './commands/update-asset.command';
import { AssetDto } from './dto/asset.dto';
import { SeededAccessorDto } from './dto/seeded-accessor.dto';
import { GetAssetFormatsQuery } from './queries/get-asset-formats.query';
import { GetAssetQuery } from './queries/get-asset.query';
import { AssetWire, FormatsWire } from './wire/asset.wire';

@ApiTags('Asset')
@Controller('asset')
export class AssetController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('update')
  @HttpCode(200)
  @ApiOperation({ operationId: 'assetUpdate', summary: 'Update an asset from the whole Asset (rename, favorite, edit text, annotations, tags, websites)' })
  @ApiBody({ type: AssetDto, required: false })
  update(@Body() asset: AssetDto, @Flag('transferables') transferables?: boolean): Promise<AssetWire> {
    return this.commands.execute(new UpdateAssetCommand(asset, withContent(transferables)));
  }

  @Get(':asset')
  @ApiOperation({ operationId: 'assetSnapshot', summary: 'One asset (410 once deleted)' })
  get(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
    @Flag('package_activities') packageActivities?: boolean,
  ): Promise<AssetWire> {
    void packageActivities; // activities are served by GET /asset/{asset}/activities
    return this.queries.execute(new GetAssetQuery(asset, withContent(transferables)));
  }

  @Post(':asset')
  @HttpCode(200)
  @ApiOperation({ operationId: 'assetSnapshotPost', summary: 'One asset, read on behalf of the given accessor' })
  @ApiBody({ type: SeededAccessorDto, required: false })
  getFor(
    @Param('asset', uuidParam('asset')) asset: string,
    @Body() accessor: SeededAccessorDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AssetWire> {
    void accessor; // single local user: every accessor sees the same asset
    return this.queries.execute(new GetAssetQuery(asset, withContent(transferables)));
  }

  @Get(':asset/formats')
  @ApiOperation({ operationId: 'assetFormats', summary: 'The formats of one asset' })
  formats(@Param('asset', uuidParam('asset')) asset: string, @Flag('transferables') transferables?: boolean): Promise<FormatsWire> {
    return this.queries.execute(new GetAssetFormatsQuery(asset, withContent(transferables)));
  }
}
