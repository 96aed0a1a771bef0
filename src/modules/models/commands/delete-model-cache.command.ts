import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { ModelRegistry } from '../model-registry';
import { ModelStore } from '../model.store';
import { ModelDeleteCacheOutputWire } from '../wire/model.wire';

/**
 * POST /models/{model}/delete/cache: removes what was downloaded for a local LLM (an
 * Ollama model's files). Cloud models, the offline engine and the user's own GGUF files
 * have nothing Trove may remove: 400.
 */
export class DeleteModelCacheCommand extends Command<ModelDeleteCacheOutputWire> {
  constructor(readonly modelId: string) {
    super();
  }
}

@CommandHandler(DeleteModelCacheCommand)
export class DeleteModelCacheHandler implements ICommandHandler<DeleteModelCacheCommand> {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly store: ModelStore,
  ) {}

  async execute({ modelId }: DeleteModelCacheCommand): Promise<ModelDeleteCacheOutputWire> {
    const row = await this.store.one(modelId);
    if (!row) throw new NotFound(`model ${modelId} not found`);
    if (row.custom)
      throw new InvalidInput(
        `model ${modelId} is a custom model: it has no files of its own (delete the cache of the model it builds on)`,
      );
    const provider = this.registry.provider(row.provider);
    const reason: Record<string, string> = {
      offline: 'the offline engine ships with Trove and downloads nothing',
      openai: 'it is served by an OpenAI-compatible server, which owns its files',
      llama_cpp: 'it is your own GGUF file, which Trove did not download and will not delete',
    };
    if (!provider || reason[row.provider]) {
      throw new InvalidInput(
        `model ${modelId} (${row.name}) has no downloaded cache to delete: ${reason[row.provider] ?? 'its provider is not configured'}`,
      );
    }
    if (!(await provider.deleteCache(row.unique)))
      throw new InvalidInput(`model ${modelId} (${row.name}) has no downloaded cache to delete`);
    // The provider no longer has the model: forget it (a later listing records it again if it comes back).
    await this.store.remove([row.id]);
    return { model: { id: row.id } };
  }
}
