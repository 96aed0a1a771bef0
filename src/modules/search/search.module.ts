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

const queryHandlers = [SearchAssetsHandler, SearchWithFiltersHandler, RelatedAssetsHandler, RecommendedAssetsHandler, SearchRouteHandler];

/**
 * The search index over assets (words + identifier parts, substrings, typo correction), a
 * projection kept in step inside the asset transactions (SearchIndex), and the search / related /
 * recommended routes.
 */
@Module({
  imports: [AssetsModule, EventsModule],
  controllers: [SearchController, SearchRoutesController],
  providers: [SearchIndex, SearchEngine, ...queryHandlers],
  exports: [SearchIndex, SearchEngine],
})
export class SearchModule {}
