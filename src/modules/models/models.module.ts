import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { NetModule } from '../../common/net/net.module';
import { IntelligenceModule } from '../intelligence/intelligence.module';
import { ModelUnitOfWork } from './model-unit-of-work';
import { AppConfig } from '../../common/config/app-config';
import { OutboundHttp } from '../../common/net/outbound-http';
import { Fetch } from '../intelligence/providers/http';
import { LlamaCppProvider } from '../intelligence/providers/llama-cpp.provider';
import { MODEL_PROVIDERS, ModelProvider } from '../intelligence/providers/model-provider';
import { OfflineProvider } from '../intelligence/providers/offline.provider';
import { OllamaProvider } from '../intelligence/providers/ollama.provider';
import { OpenAiProvider } from '../intelligence/providers/openai.provider';
import { TEXT_GENERATOR } from '../intelligence/text/text-generator';
import { CreateModelHandler } from './commands/create-model.command';
import { DeleteModelCacheHandler } from './commands/delete-model-cache.command';
import { DeleteModelHandler } from './commands/delete-model.command';
import { UnloadModelsHandler } from './commands/unload-models.command';
import { EmbeddingModelBinding } from './embedding-model-binding';
import { ModelRegistry } from './model-registry';
import { ModelStore } from './model.store';
import { ModelsController } from './models.controller';
import { ModelController } from './model.controller';
import { GetModelHandler } from './queries/get-model.query';
import { LoadModelHandler } from './commands/load-model.command';
import { CancelModelDownloadHandler, DownloadModelHandler } from './commands/download-model.command';
import { ModelDownloads } from './model-downloads';
import { ListModelsHandler } from './queries/list-models.query';
import { RoutedTextGenerator } from './routed-text-generator';
import { EnrichmentModelBinding } from './enrichment-model-binding';

/** The configured providers: the offline engine always, the others when configured. */
function providersFromConfig(config: AppConfig, outbound: OutboundHttp): ModelProvider[] {
  const providers: ModelProvider[] = [new OfflineProvider()];
  // A configured provider may be local (Ollama on 127.0.0.1); anything it redirects to is checked.
  const send: Fetch = (url, init) => outbound.fetch(url, init as never) as unknown as Promise<Response>;
  if (config.ollamaUrl) {
    outbound.allow(config.ollamaUrl);
    providers.push(new OllamaProvider(config.ollamaUrl, config.providerTimeoutMs, send));
  }
  if (config.openaiUrl) {
    outbound.allow(config.openaiUrl);
    providers.push(new OpenAiProvider(config.openaiUrl, config.openaiApiKey, config.providerTimeoutMs, send));
  }
  if (config.ggufPaths.length) providers.push(new LlamaCppProvider(config.ggufPaths));
  return providers;
}

/**
 * Models and their providers: GET/POST /models..., the registry every model user resolves
 * through, and TEXT_GENERATOR routed to the selected model.
 */
@Module({
  imports: [EventsModule, IntelligenceModule, NetModule],
  controllers: [ModelsController, ModelController],
  providers: [
    ModelUnitOfWork,
    { provide: MODEL_PROVIDERS, inject: [AppConfig, OutboundHttp], useFactory: providersFromConfig },
    ModelStore,
    ModelRegistry,
    EmbeddingModelBinding,
    RoutedTextGenerator,
    EnrichmentModelBinding,
    { provide: TEXT_GENERATOR, useExisting: RoutedTextGenerator },
    ListModelsHandler,
    CreateModelHandler,
    DeleteModelHandler,
    DeleteModelCacheHandler,
    UnloadModelsHandler,
    GetModelHandler,
    LoadModelHandler,
    ModelDownloads,
    DownloadModelHandler,
    CancelModelDownloadHandler,
  ],
  exports: [ModelRegistry, ModelStore, ModelDownloads, TEXT_GENERATOR],
})
export class ModelsModule {}
