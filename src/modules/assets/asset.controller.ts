import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { InvalidInput } from '../../common/errors/domain-errors';
import { callerOf } from '../../common/http/team-caller';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam, withContent } from '../../common/wire/flags';
import { CreateAssetCommand } from './commands/create-asset.command';
import { CopiedAssetWire, CopyToSpaceDto, copySeed } from './copy-to-space';
import { AssetLinkKind, ChangeAssetLinkCommand } from './commands/change-asset-link.command';
import { IncrementAssetScoresCommand } from './commands/increment-asset-scores.command';
import { ReclassifyAssetCommand } from './commands/reclassify-asset.command';
import { UpdateAssetCommand } from './commands/update-asset.command';
import { AssetReclassificationDto } from './dto/asset-reclassification.dto';
import { AssetDto } from './dto/asset.dto';
import { SeededAccessorDto } from './dto/seeded-accessor.dto';
import { SeededScoreIncrementDto } from '../../common/wire/dto/seeded-score-increment.dto';
import { EXPORT_TYPES, parseExportType } from './export/asset-export';
import { ExportAssetQuery } from './queries/export-asset.query';
import { GetAssetFormatsQuery } from './queries/get-asset-formats.query';
import { GetAssetQuery } from './queries/get-asset.query';
import { ListAssetActivitiesQuery } from './queries/list-asset-activities.query';
import { ActivitiesWire } from './wire/activity.wire';
import { AssetWire, FormatsWire } from './wire/asset.wire';
import { ExportedAssetWire } from './wire/exported-asset.wire';

@ApiTags('Asset')
@Controller('asset')
export class AssetController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetUpdate',
    summary: 'Update an asset from the whole Asset (rename, favorite, edit text, annotations, tags, websites)',
  })
  @ApiBody({ type: AssetDto, required: false })
  update(@Body() asset: AssetDto, @Flag('transferables') transferables?: boolean): Promise<AssetWire> {
    return this.commands.execute(new UpdateAssetCommand(asset, withContent(transferables)));
  }

  @Post(':asset/copy')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'assetCopyToSpace',
    summary:
      'Copies a snippet into a shared space you edit (team deployments, docs/TEAMS.md): its text, language, name, description, tags and links',
  })
  @ApiBody({ type: CopyToSpaceDto })
  async copy(
    @Param('asset', uuidParam('asset')) asset: string,
    @Body() body: CopyToSpaceDto,
    @Req() request: FastifyRequest,
  ): Promise<CopiedAssetWire> {
    const caller = callerOf(request.raw);
    if (!caller)
      throw new InvalidInput('copying into a space needs a team deployment (docs/TEAMS.md); this Trove has no users');
    const seed = copySeed(await this.queries.execute<GetAssetQuery, AssetWire>(new GetAssetQuery(asset, true, true)));
    return caller.inSpace(body.space, true, async (app, space, spaceStore) => {
      const copy = await app.get(CommandBus).execute<CreateAssetCommand, AssetWire>(new CreateAssetCommand(seed, true));
      // The copy's own entry, in the space (the request's entry names the original in the caller's store).
      caller.audit({
        action: 'create',
        method: 'POST',
        route: '/asset/:asset/copy',
        record: copy.id,
        status: 201,
        store: spaceStore,
      });
      return { asset: copy, space };
    });
  }

  @Get(':asset')
  @ApiOperation({ operationId: 'assetSnapshot', summary: 'One asset (410 once deleted)' })
  get(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
    @Flag('package_activities') packageActivities?: boolean,
  ): Promise<AssetWire> {
    void packageActivities; // activities are served by GET /asset/{asset}/activities
    return this.queries.execute(new GetAssetQuery(asset, withContent(transferables), true));
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
    return this.queries.execute(new GetAssetQuery(asset, withContent(transferables), true));
  }

  @Get(':asset/formats')
  @ApiOperation({ operationId: 'assetFormats', summary: 'The formats of one asset' })
  formats(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<FormatsWire> {
    return this.queries.execute(new GetAssetFormatsQuery(asset, withContent(transferables)));
  }

  @Post('reclassify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetReclassify',
    summary: 'Relabel every text format of the asset to the language `ext`; answers the whole asset',
  })
  @ApiBody({ type: AssetReclassificationDto, required: false })
  reclassify(
    @Body() input: AssetReclassificationDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<AssetWire> {
    return this.commands.execute(new ReclassifyAssetCommand(input, withContent(transferables)));
  }

  @Post(':asset/scores/increment')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetScoresIncrement',
    summary: 'Add one to each score counter flagged true in `asset`',
  })
  @ApiBody({ type: SeededScoreIncrementDto, required: false })
  @ApiNoContentResponse({ description: 'incremented' })
  async scores(
    @Param('asset', uuidParam('asset')) asset: string,
    @Body() increment: SeededScoreIncrementDto,
  ): Promise<void> {
    await this.commands.execute(new IncrementAssetScoresCommand(asset, increment));
  }

  @Get(':asset/activities')
  @ApiOperation({
    operationId: 'assetSpecificAssetActivities',
    summary: 'What happened to the asset, most recent first',
  })
  activities(
    @Param('asset', uuidParam('asset')) asset: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ActivitiesWire> {
    void transferables; // activities carry the asset flattened: there is no content to omit
    return this.queries.execute(new ListAssetActivitiesQuery(asset));
  }

  @Get(':asset/export')
  @ApiOperation({
    operationId: 'assetSpecificAssetExport',
    summary: 'The asset as a Markdown document or a standalone HTML page',
  })
  @ApiQuery({
    name: 'export_type',
    required: true,
    enum: [...EXPORT_TYPES],
    description: '`exportType` is accepted too',
  })
  export(
    @Param('asset', uuidParam('asset')) asset: string,
    @Query('export_type') exportType?: string,
    @Query('exportType') exportTypeCamel?: string,
  ): Promise<ExportedAssetWire> {
    return this.queries.execute(new ExportAssetQuery(asset, parseExportType(exportType ?? exportTypeCamel)));
  }

  @Post(':asset/tags/associate/:tag')
  @HttpCode(204)
  @ApiOperation({ operationId: 'assetAssociateTag', summary: 'Link a tag (by id) to the asset' })
  @ApiNoContentResponse({ description: 'linked' })
  associateTag(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('tag', uuidParam('tag')) tag: string,
  ): Promise<void> {
    return this.link(asset, 'tag', tag, true);
  }

  @Post(':asset/tags/disassociate/:tag')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetDisassociateTag',
    summary: 'Unlink a tag (by id) from the asset; the tag itself stays',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  disassociateTag(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('tag', uuidParam('tag')) tag: string,
  ): Promise<void> {
    return this.link(asset, 'tag', tag, false);
  }

  @Post(':asset/websites/associate/:website')
  @HttpCode(204)
  @ApiOperation({ operationId: 'assetAssociateWebsite', summary: 'Link a website (by id) to the asset' })
  @ApiNoContentResponse({ description: 'linked' })
  associateWebsite(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('website', uuidParam('website')) website: string,
  ): Promise<void> {
    return this.link(asset, 'website', website, true);
  }

  @Post(':asset/websites/disassociate/:website')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetDisassociateWebsite',
    summary: 'Unlink a website (by id) from the asset; the website itself stays',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  disassociateWebsite(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('website', uuidParam('website')) website: string,
  ): Promise<void> {
    return this.link(asset, 'website', website, false);
  }

  @Post(':asset/workstream_summaries/associate/:workstream_summary')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetAssociateWorkstreamSummary',
    summary: 'Link a workstream summary (by id) to the asset',
  })
  @ApiNoContentResponse({ description: 'linked' })
  associateSummary(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
  ): Promise<void> {
    return this.link(asset, 'workstream_summary', summary, true);
  }

  @Post(':asset/workstream_summaries/disassociate/:workstream_summary')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'assetDisassociateWorkstreamSummary',
    summary: 'Unlink a workstream summary (by id) from the asset',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  disassociateSummary(
    @Param('asset', uuidParam('asset')) asset: string,
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
  ): Promise<void> {
    return this.link(asset, 'workstream_summary', summary, false);
  }

  private async link(asset: string, kind: AssetLinkKind, target: string, link: boolean): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, kind, target, link));
  }
}
