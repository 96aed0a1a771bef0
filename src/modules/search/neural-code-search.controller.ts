import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Flag, QueryText } from '../../common/wire/flags';
import { SearchedAssetsWire } from './wire/searched-assets.wire';
import { NeuralCodeSearchQuery } from './queries/neural-code-search.query';

/** GET /search/neural_code: the ranking question answering uses (Retrieval; see NeuralCodeSearchQuery). */
@ApiTags('Search')
@Controller('search')
export class NeuralCodeSearchController {
  constructor(private readonly queries: QueryBus) {}

  @Get('neural_code')
  @ApiOperation({
    operationId: 'neuralCodeSearch',
    summary:
      'Code found from a description of what it does: the ranking of /qgpt/relevance (lexical and identifier-aware offline; embeddings when configured)',
  })
  @ApiQuery({ name: 'query', required: true, type: String })
  neuralCode(
    @QueryText(['query']) query: string | undefined,
    @Flag('pseudo') pseudo?: boolean,
  ): Promise<SearchedAssetsWire> {
    void pseudo;
    return this.queries.execute(new NeuralCodeSearchQuery(query));
  }
}
