import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { Limit } from '../../common/wire/paging';
import { CreateWorkstreamSummaryCommand } from './commands/create-workstream-summary.command';
import { DeleteWorkstreamSummaryCommand } from './commands/delete-workstream-summary.command';
import {
  SearchInputDto,
  SeededWorkstreamSummaryDto,
  newSummaryOfSeed,
  searchOfInput,
} from './dto/workstream-summary.dto';
import { ListWorkstreamSummariesQuery } from './queries/list-workstream-summaries.query';
import { SEARCH_HITS, SearchWorkstreamSummariesQuery } from './queries/search-workstream-summaries.query';
import { MAX_MEMORY_HITS } from './workstream-summary.reader';
import {
  SearchedWorkstreamSummariesWire,
  WorkstreamSummariesWire,
  WorkstreamSummaryWire,
} from './wire/workstream-summary.wire';

/** Workstream summaries (what agents save as memories). `transferables` is accepted: a summary has no format content. */
@ApiTags('WorkstreamSummaries')
@Controller('workstream_summaries')
export class WorkstreamSummariesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'workstreamSummariesSnapshot', summary: 'Every workstream summary, most recent first' })
  list(@Flag('transferables') transferables?: boolean): Promise<WorkstreamSummariesWire> {
    void transferables;
    return this.queries.execute(new ListWorkstreamSummariesQuery());
  }

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'workstreamSummariesCreateNewWorkstreamSummary',
    summary:
      'Save a workstream summary: its SUMMARY annotation is the text, DESCRIPTION the description, websites the links, anchors the files and project',
  })
  @ApiBody({ type: SeededWorkstreamSummaryDto })
  create(
    @Body() seed: SeededWorkstreamSummaryDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<WorkstreamSummaryWire> {
    void transferables;
    return this.commands.execute(new CreateWorkstreamSummaryCommand(newSummaryOfSeed(seed)));
  }

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchWorkstreamSummaries',
    summary:
      'Full-text search of the workstream summaries (name, description, text, project, files, links): any word of the queries, best first',
  })
  @ApiBody({ type: SearchInputDto })
  search(
    @Body() input: SearchInputDto,
    @Flag('transferables') transferables?: boolean,
    @Limit(MAX_MEMORY_HITS, 'hits, best first', SEARCH_HITS) limit?: number,
  ): Promise<SearchedWorkstreamSummariesWire> {
    void transferables;
    const { query, exact } = searchOfInput(input);
    return this.queries.execute(new SearchWorkstreamSummariesQuery(query, exact, limit));
  }

  @Post(':workstream_summary/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'workstreamSummariesDeleteSpecificWorkstreamSummary',
    summary: 'Delete a workstream summary and its asset links (later reads answer 410)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  delete(@Param('workstream_summary', uuidParam('workstream_summary')) summary: string): Promise<void> {
    return this.commands.execute(new DeleteWorkstreamSummaryCommand(summary));
  }
}
