import { Module } from '@nestjs/common';
import { CodeTerms } from './code-terms';
import { LanguageDetector } from './language-detector.service';
import { EnrichmentModel } from './text/enrichment-model';
import { ExtractiveTextEngine } from './text/extractive-text-engine';

/** No routes: the offline ML every other module uses (language detection, ...). */
@Module({
  // TEXT_GENERATOR (routed to the selected model) is provided by the models module, which also
  // binds EnrichmentModel to the enrichment model when one is configured.
  providers: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EnrichmentModel],
  exports: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EnrichmentModel],
})
export class IntelligenceModule {}
