import { Module } from '@nestjs/common';
import { CodeTerms } from './code-terms';
import { LanguageDetector } from './language-detector.service';
import { EnrichmentModel } from './text/enrichment-model';
import { EmbeddingModel } from './text/embedding-model';
import { ExtractiveTextEngine } from './text/extractive-text-engine';

/** No routes: the offline ML every other module uses (language detection, ...). */
@Module({
  // TEXT_GENERATOR (routed to the selected model) is provided by the models module, which also
  // binds EnrichmentModel to the enrichment model and EmbeddingModel to the embedding model when configured.
  providers: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EnrichmentModel, EmbeddingModel],
  exports: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EnrichmentModel, EmbeddingModel],
})
export class IntelligenceModule {}
