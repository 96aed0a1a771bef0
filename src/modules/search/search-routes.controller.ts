import { Body, Controller, Get, HttpCode, Post, BadRequestException } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Flag, QueryText } from '../../common/wire/flags';
import { SeededAssetTagsDto } from './dto/seeded-asset-tags.dto';
import { SearchRouteQuery } from './queries/search-routes.query';
import { SearchedAssetsWire } from './wire/searched-assets.wire';

/**
 * /search/...: the SDKs' SearchApi, beyond the core interface (`pieces search --mode fts` and the
 * tag search; `--mode ncs` is GET /search/neural_code, in the qgpt module, which owns the
 * passage ranking). A missing query or tag is a 400, as on GET /assets/search.
 */
@ApiTags('Search')
@Controller('search')
export class SearchRoutesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('full_text')
  @ApiOperation({
    operationId: 'fullTextSearch',
    summary: 'Exact full-text search: every word (or identifier part) present; no substrings or typo correction',
  })
  @ApiQuery({ name: 'query', required: true, type: String })
  fullText(
    @QueryText(['query']) query: string | undefined,
    @Flag('pseudo') pseudo?: boolean,
  ): Promise<SearchedAssetsWire> {
    return this.queries.execute(new SearchRouteQuery({ kind: 'full_text', query }, pseudo === true));
  }

  @Post('tag_based')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'tagBasedSearch',
    summary: 'Assets with the given tags (case-insensitive), those with the most of them first',
  })
  @ApiBody({ type: SeededAssetTagsDto, required: false })
  tagBased(@Body() body: SeededAssetTagsDto, @Flag('pseudo') pseudo?: boolean): Promise<SearchedAssetsWire> {
    if (!body) throw new BadRequestException('a SeededAssetTags body is required');
    return this.queries.execute(
      new SearchRouteQuery({ kind: 'tag_based', tags: body.iterable.map((t) => t.text) }, pseudo === true),
    );
  }
}
