import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { collect } from '../intelligence/providers/model-provider';
import { EnrichmentModel } from '../intelligence/text/enrichment-model';
import { ModelRegistry } from './model-registry';

/**
 * Binds EnrichmentModel to TROVE_ENRICHMENT_MODEL (default TROVE_DEFAULT_MODEL) when it is a
 * language model and TROVE_MODEL_ENRICHMENT is not off; resolved on each use, as requests are, so
 * a provider that comes up later is found. Left unbound otherwise: the offline enrichment alone.
 */
@Injectable()
export class EnrichmentModelBinding implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly registry: ModelRegistry,
    private readonly model: EnrichmentModel,
  ) {}

  onModuleInit(): void {
    const wanted = this.config.enrichmentModel;
    if (!wanted) return;
    this.model.bind(async (messages, { signal, maxTokens }) => {
      const model = await this.registry.resolve(wanted);
      if (model.offline) return null;
      return collect(model.provider.chat(model.unique, messages, { signal, maxTokens, temperature: 0.2 }));
    });
  }
}
