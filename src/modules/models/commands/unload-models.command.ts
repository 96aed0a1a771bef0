import { Logger } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../model-registry';

/**
 * POST /models/unload: frees the memory of every loaded model that can be unloaded (Ollama
 * models via keep_alive 0, node-llama-cpp models disposed). Remote servers hold nothing here,
 * nor does Trove's language classifier (a few MB of weights, not a loaded model). A provider that
 * cannot be reached is skipped.
 */
export class UnloadModelsCommand extends Command<void> {}

@CommandHandler(UnloadModelsCommand)
export class UnloadModelsHandler implements ICommandHandler<UnloadModelsCommand> {
  private readonly logger = new Logger('Models');

  constructor(private readonly registry: ModelRegistry) {}

  async execute(): Promise<void> {
    await Promise.all(
      this.registry.providers.map(async (provider) => {
        if (provider.kind === 'offline' || provider.kind === 'openai') return;
        try {
          const loaded = (await provider.list()).filter((m) => m.loaded);
          for (const model of loaded) await provider.unload(model.unique);
        } catch (error) {
          this.logger.warn(`${provider.label}: cannot unload (${(error as Error).message})`);
        }
      }),
    );
  }
}
