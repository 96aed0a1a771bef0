import { Global, Module } from '@nestjs/common';
import { LanguageDetector } from './language-detector.service';

/** No routes: the offline ML every other module uses (language detection, ...). */
@Global()
@Module({
  providers: [LanguageDetector],
  exports: [LanguageDetector],
})
export class IntelligenceModule {}
