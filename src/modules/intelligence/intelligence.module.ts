import { Global, Module } from '@nestjs/common';
import { CodeTerms } from './code-terms';
import { LanguageDetector } from './language-detector.service';
import { ExtractiveTextEngine } from './text/extractive-text-engine';
import { TEXT_GENERATOR } from './text/text-generator';

/** No routes: the offline ML every other module uses (language detection, ...). */
@Global()
@Module({
  providers: [CodeTerms, LanguageDetector, ExtractiveTextEngine, { provide: TEXT_GENERATOR, useExisting: ExtractiveTextEngine }],
  exports: [CodeTerms, LanguageDetector, ExtractiveTextEngine, TEXT_GENERATOR],
})
export class IntelligenceModule {}
