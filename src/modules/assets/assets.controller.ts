import { Body, Controller, Get, Headers, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { PageRequest, Paging } from '../../common/wire/paging';
import { TextResponse } from '../../common/wire/text';
import { CreateAssetCommand } from './commands/create-asset.command';
import { DeleteAssetCommand } from './commands/delete-asset.command';
import { SeedDto } from './dto/seed.dto';
import { DraftSeedQuery } from './queries/draft-seed.query';
import { ListPseudoAssetsQuery } from './queries/list-pseudo-assets.query';
import { GetAssetFormatsQuery } from './queries/get-asset-formats.query';
import { GetAssetQuery } from './queries/get-asset.query';
import { ListAssetIdentifiersQuery } from './queries/list-asset-identifiers.query';
import { ListAssetsQuery } from './queries/list-assets.query';
import { AssetWire, AssetsWire, FlattenedAssetsWire, FormatsWire, PseudoAssetsWire } from './wire/asset.wire';

@ApiTags('Assets')
@Controller('assets')
export class AssetsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetsCreateNewAsset',
    summary: 'Create an asset from a Seed (a text fragment and optional metadata)',
  })
  @ApiBody({ type: SeedDto, required: false })
  @ApiHeader({
    name: 'idempotency-key',
    required: false,
    description:
      'Retrying with the same key (1-255 visible ASCII characters) answers the asset already created instead of a duplicate; the same key with another body is a 422',
  })
  create(
    @Body() seed: SeedDto,
    @Flag('transferables') transferables?: boolean,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<AssetWire> {
    return this.commands.execute(new CreateAssetCommand(seed, withContent(transferables), idempotencyKey));
  }

  @Post(':asset/delete')
  @HttpCode(200)
  @TextResponse()
  @ApiOperation({ operationId: 'assetsDeleteAsset', summary: 'Delete an asset; answers its uuid as text' })
  @ApiOkResponse({ schema: { type: 'string', format: 'uuid' } })
  delete(@Param('asset', uuidParam('asset')) asset: string): Promise<string> {
    return this.commands.execute(new DeleteAssetCommand(asset));
  }

  @Get()
  @ApiOperation({
    operationId: 'assetsSnapshot',
    summary: 'Every asset, most recent first, streamed (or one page of them with the `limit`/`cursor` extension)',
  })
  @ApiOkResponse({ type: AssetsWire })
  list(
    @Flag('transferables') transferables?: boolean,
    @Flag('suggested') suggested?: boolean,
    @Flag('pseudo') pseudo?: boolean,
    @Paging() page?: PageRequest | null,
  ): Promise<StreamableFile | AssetsWire> {
    void suggested; // Trove keeps no separate "suggested" content: the snapshot is the same.
    return this.queries.execute(new ListAssetsQuery(withContent(transferables), pseudo === true, page ?? null));
  }

  @Get('identifiers')
  @ApiOperation({
    operationId: 'assetsIdentifiersSnapshot',
    summary:
      'Ids of every asset, most recent first, streamed (or one page of them with the `limit`/`cursor` extension)',
  })
  @ApiOkResponse({ type: FlattenedAssetsWire })
  identifiers(
    @Flag('pseudo') pseudo?: boolean,
    @Paging() page?: PageRequest | null,
  ): Promise<StreamableFile | FlattenedAssetsWire> {
    return this.queries.execute(new ListAssetIdentifiersQuery(pseudo === true, page ?? null));
  }

  @Get('pseudo')
  @ApiOperation({
    operationId: 'assetsPseudoSnapshot',
    summary: 'Ids of the pseudo assets only, most recent first, streamed',
  })
  @ApiOkResponse({ type: PseudoAssetsWire })
  pseudo(): Promise<StreamableFile | PseudoAssetsWire> {
    return this.queries.execute(new ListPseudoAssetsQuery());
  }

  @Post('draft')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetsDraft',
    summary:
      'The seed enriched (classification, suggested name and tags) without saving anything; an image seed comes back unchanged',
  })
  @ApiBody({ type: SeedDto, required: false })
  @ApiOkResponse({ type: SeedDto })
  draft(@Body() seed: SeedDto, @Flag('transferables') transferables?: boolean): Promise<SeedDto> {
    return this.queries.execute(new DraftSeedQuery(seed, withContent(transferables)));
  }

  @Get(':asset')
  @ApiOperation({ operationId: 'assetsSpecificAssetSnapshot', summary: 'One asset (410 once deleted)' })
  get(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AssetWire> {
    return this.queries.execute(new GetAssetQuery(asset, withContent(transferables)));
  }

  @Get(':asset/formats')
  @ApiOperation({ operationId: 'assetsSpecificAssetFormatsSnapshot', summary: 'The formats of one asset' })
  formats(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatsWire> {
    return this.queries.execute(new GetAssetFormatsQuery(asset, withContent(transferables)));
  }
}
