import { Module } from '@nestjs/common';
import { CodeTerms } from './code-terms';
import { LanguageDetector } from './language-detector.service';
import { EmbeddingModel } from './text/embedding-model';
import { ExtractiveTextEngine } from './text/extractive-text-engine';

/** No routes: the offline ML every other module uses (language detection, ...). */
@Module({
  // TEXT_GENERATOR (routed to the selected model) is provided by the models module, which also binds EmbeddingModel.
  providers: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EmbeddingModel],
  exports: [CodeTerms, LanguageDetector, ExtractiveTextEngine, EmbeddingModel],
})
export class IntelligenceModule {}
