import { Global, Module } from '@nestjs/common';
import { SearchIndex } from './search-index.service';

/** The search index over assets (full text + fuzzy), fed inside asset transactions. */
@Global()
@Module({
  providers: [SearchIndex],
  exports: [SearchIndex],
})
export class SearchModule {}
