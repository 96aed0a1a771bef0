import { Body, Controller, Get, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Flag, QueryText, withContent } from '../../common/wire/flags';
import { AssetsDto } from '../assets/dto/asset.dto';
import { AssetsWire } from '../assets/wire/asset.wire';
import { SeededAssetsRecommendationDto } from './dto/recommendation.dto';
import { AssetsSearchWithFiltersInputDto } from './dto/search-with-filters.dto';
import { searchedAcrossStores } from './across-stores';
import { GetBodyInterceptor } from './get-body.interceptor';
import { RecommendedAssetsQuery } from './queries/recommended-assets.query';
import { RelatedAssetsQuery } from './queries/related-assets.query';
import { SearchAssetsQuery } from './queries/search-assets.query';
import { SearchWithFiltersQuery } from './queries/search-with-filters.query';
import { AssetsSearchWithFiltersOutputWire, SearchedAssetsWire } from './wire/searched-assets.wire';

@ApiTags('Assets')
@Controller('assets')
export class SearchController {
  constructor(private readonly queries: QueryBus) {}

  @Get('search')
  @ApiOperation({
    operationId: 'assetsSearchAssets',
    summary:
      'Fuzzy search (words, identifier parts, substrings, typos) and/or tag search; at least one is required (400 otherwise)',
  })
  @ApiQuery({ name: 'query', required: false, type: String, description: 'fuzzy search text' })
  @ApiQuery({
    name: 'searchable_tags',
    required: false,
    type: String,
    description: 'comma-separated tags (also accepted as searchableTags)',
  })
  search(
    @QueryText(['query']) query: string | undefined,
    @QueryText(['searchable_tags', 'searchableTags']) tags: string | undefined,
    @Flag('transferables') transferables?: boolean,
    @Flag('pseudo') pseudo?: boolean,
    @Req() request?: FastifyRequest,
  ): Promise<SearchedAssetsWire> {
    const search = new SearchAssetsQuery(query, tags, withContent(transferables), pseudo === true);
    return searchedAcrossStores(request!, this.queries, (queries) => queries.execute(search));
  }

  @Post('search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetsSearchWithFilters',
    summary: 'Fuzzy query within a search space (uuids), narrowed by filters combined with AND (or OR)',
  })
  @ApiBody({ type: AssetsSearchWithFiltersInputDto, required: false })
  async searchWithFilters(
    @Body() input: AssetsSearchWithFiltersInputDto,
    @Flag('transferables') transferables?: boolean,
    @Flag('pseudo') pseudo?: boolean,
    @Req() request?: FastifyRequest,
  ): Promise<AssetsSearchWithFiltersOutputWire> {
    const search = new SearchWithFiltersQuery(input, withContent(transferables), pseudo === true);
    const results = await searchedAcrossStores(
      request!,
      this.queries,
      async (queries) =>
        (await queries.execute<SearchWithFiltersQuery, AssetsSearchWithFiltersOutputWire>(search)).results,
    );
    return { results };
  }

  @Get('related')
  @UseInterceptors(GetBodyInterceptor)
  @ApiOperation({
    operationId: 'assetsGetRelatedAssets',
    summary: 'Assets most similar to the given ones (JSON body on GET; also POST /assets/related)',
  })
  @ApiBody({ type: AssetsDto })
  related(@Body() body: AssetsDto): Promise<AssetsWire> {
    return this.queries.execute(new RelatedAssetsQuery(body.iterable));
  }

  @Post('related')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetsGetRelatedAssetsPost',
    summary: 'Same as GET /assets/related, for clients that cannot send a GET body',
  })
  @ApiBody({ type: AssetsDto })
  relatedPost(@Body() body: AssetsDto): Promise<AssetsWire> {
    return this.queries.execute(new RelatedAssetsQuery(body.iterable));
  }

  @Get('recommended')
  @UseInterceptors(GetBodyInterceptor)
  @ApiOperation({
    operationId: 'assetsGetRecommendedAssets',
    summary:
      'Assets similar to the ones the user interacted with, weighted by interaction (JSON body on GET; also POST)',
  })
  @ApiBody({ type: SeededAssetsRecommendationDto, required: false })
  recommended(@Body() seed: SeededAssetsRecommendationDto): Promise<AssetsWire> {
    return this.queries.execute(new RecommendedAssetsQuery(seed));
  }

  @Post('recommended')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'assetsGetRecommendedAssetsPost',
    summary: 'Same as GET /assets/recommended, for clients that cannot send a GET body',
  })
  @ApiBody({ type: SeededAssetsRecommendationDto, required: false })
  recommendedPost(@Body() seed: SeededAssetsRecommendationDto): Promise<AssetsWire> {
    return this.queries.execute(new RecommendedAssetsQuery(seed));
  }
}
