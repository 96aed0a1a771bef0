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

const queryHandlers = [
  SearchAssetsHandler,
  SearchWithFiltersHandler,
  RelatedAssetsHandler,
  RecommendedAssetsHandler,
  SearchRouteHandler,
];

/**
 * The search index over assets (words + identifier parts, substrings, typo correction), a
 * projection kept in step inside the asset transactions (SearchIndex), and the search / related /
 * recommended routes; with an embedding model configured, the model vectors of snippets and
 * memories (ModelVectorIndex), embedded in the background and fused into their searches.
 */
@Module({
  imports: [AssetsModule, EventsModule, IntelligenceModule],
  controllers: [SearchController, SearchRoutesController],
  providers: [SearchIndex, SearchEngine, ModelVectorIndex, ModelVectorsHandler, ...queryHandlers],
  exports: [SearchIndex, SearchEngine, ModelVectorIndex],
})
export class SearchModule {}
