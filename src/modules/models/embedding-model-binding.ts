import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { EmbeddingModel } from '../intelligence/text/embedding-model';
import { ModelRegistry } from './model-registry';

/** Binds EmbeddingModel to the provider of TROVE_EMBEDDING_MODEL (resolved at each call, as qgpt's re-ranking does). */
@Injectable()
export class EmbeddingModelBinding {
  constructor(registry: ModelRegistry, config: AppConfig, embedding: EmbeddingModel) {
    const model = config.embeddingModel;
    if (!model) return;
    embedding.bind(model, async (texts) => {
      const resolved = await registry.resolve(model);
      return resolved.provider.embed(resolved.unique, texts);
    });
  }
}
