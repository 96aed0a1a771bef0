import { Global, Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { RecommendedAssetsHandler } from './queries/recommended-assets.query';
import { RelatedAssetsHandler } from './queries/related-assets.query';
import { SearchAssetsHandler } from './queries/search-assets.query';
import { SearchWithFiltersHandler } from './queries/search-with-filters.query';
import { SearchController } from './search.controller';
import { SearchEngine } from './search-engine.service';
import { SearchIndex } from './search-index.service';

const queryHandlers = [SearchAssetsHandler, SearchWithFiltersHandler, RelatedAssetsHandler, RecommendedAssetsHandler];

/**
 * The search index over assets (words + identifier parts, substrings, typo correction), written
 * inside the asset transactions through SearchIndex, and the search / related / recommended routes.
 */
@Global()
@Module({
  imports: [AssetsModule],
  controllers: [SearchController],
  providers: [SearchIndex, SearchEngine, ...queryHandlers],
  exports: [SearchIndex, SearchEngine],
})
export class SearchModule {}
