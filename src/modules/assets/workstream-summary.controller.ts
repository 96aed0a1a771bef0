import { Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ChangeAssetLinkCommand } from './commands/change-asset-link.command';
import { Flag, uuidParam } from '../../common/wire/flags';
import { ExportWorkstreamSummaryQuery } from './queries/export-workstream-summary.query';
import { GetWorkstreamSummaryQuery } from './queries/get-workstream-summary.query';
import { WorkstreamSummaryWire } from './wire/workstream-summary.wire';

@ApiTags('WorkstreamSummary')
@Controller('workstream_summary')
export class WorkstreamSummaryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':workstream_summary')
  @ApiOperation({
    operationId: 'workstreamSummariesSpecificWorkstreamSummarySnapshot',
    summary: 'One workstream summary with everything it holds (410 once deleted)',
  })
  get(
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<WorkstreamSummaryWire> {
    void transferables;
    return this.queries.execute(new GetWorkstreamSummaryQuery(summary));
  }

  @Get(':workstream_summary/export')
  @Header('content-type', 'text/markdown; charset=utf-8')
  @ApiProduces('text/markdown')
  @ApiOperation({
    operationId: 'workstreamSummarySpecificWorkstreamSummaryExport',
    summary:
      'Trove extension: the workstream summary as one Markdown document (title, description, project, files, links, text)',
  })
  @ApiOkResponse({ content: { 'text/markdown': { schema: { type: 'string' } } } })
  export(@Param('workstream_summary', uuidParam('workstream_summary')) summary: string): Promise<string> {
    return this.queries.execute(new ExportWorkstreamSummaryQuery(summary));
  }

  @Post(':workstream_summary/assets/associate/:asset')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'workstreamSummaryAssociateAsset',
    summary:
      'Link the summary to an asset (as POST /asset/{asset}/workstream_summaries/associate/{workstream_summary})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateAsset(
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'workstream_summary', summary, true));
  }

  @Post(':workstream_summary/assets/disassociate/:asset')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'workstreamSummaryDisassociateAsset',
    summary: 'Unlink the summary from an asset; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateAsset(
    @Param('workstream_summary', uuidParam('workstream_summary')) summary: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'workstream_summary', summary, false));
  }
}
