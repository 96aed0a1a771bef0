import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { RecommendedAssetsHandler } from './queries/recommended-assets.query';
import { RelatedAssetsHandler } from './queries/related-assets.query';
import { SearchAssetsHandler } from './queries/search-assets.query';
import { SearchRouteHandler } from './queries/search-routes.query';
import { SearchWithFiltersHandler } from './queries/search-with-filters.query';
import { SearchRoutesController } from './search-routes.controller';
import { SearchController } from './search.controller';
import { SearchEngine } from './search-engine.service';
import { SearchIndex } from './search-index.service';
import { EventsModule } from '../../common/events/events.module';
import { IntelligenceModule } from '../intelligence/intelligence.module';
import { ModelVectorsHandler } from './events/model-vectors.handler';
import { ModelVectorIndex } from './model-vector-index';
import { LexicalRanking } from './lexical-ranking';
import { NeuralCodeSearchController } from './neural-code-search.controller';
import { NeuralCodeSearchHandler } from './queries/neural-code-search.query';
import { Retrieval } from './retrieval.service';

const queryHandlers = [
  SearchAssetsHandler,
  SearchWithFiltersHandler,
  RelatedAssetsHandler,
  RecommendedAssetsHandler,
  SearchRouteHandler,
  NeuralCodeSearchHandler,
];

/**
 * The search index over assets (words + identifier parts, substrings, typo correction), a
 * projection kept in step inside the asset transactions (SearchIndex), and the search / related /
 * recommended routes; Retrieval, the one retrieval by meaning (question answering, neural code
 * search, MCP, sentence search); with an embedding model configured, the model vectors of
 * snippets and memories (ModelVectorIndex), embedded in the background and fused into their searches.
 */
@Module({
  imports: [AssetsModule, EventsModule, IntelligenceModule],
  controllers: [SearchController, SearchRoutesController, NeuralCodeSearchController],
  providers: [
    SearchIndex,
    LexicalRanking,
    Retrieval,
    SearchEngine,
    ModelVectorIndex,
    ModelVectorsHandler,
    ...queryHandlers,
  ],
  exports: [SearchIndex, SearchEngine, Retrieval, ModelVectorIndex],
})
export class SearchModule {}
