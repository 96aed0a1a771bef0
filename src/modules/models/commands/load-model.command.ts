import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../common/errors/domain-errors';
import { ModelRegistry } from '../model-registry';
import { ModelWire, modelWire } from '../wire/model.wire';

/**
 * POST /model/{model}/load and /unload (the SDK's ModelApi): loads a local model into memory
 * ahead of use, or frees it. Models that hold no memory here (the offline engine, served
 * models) are answered as they are.
 */
export class LoadModelCommand extends Command<ModelWire> {
  constructor(
    readonly modelId: string,
    readonly load: boolean,
  ) {
    super();
  }
}

@CommandHandler(LoadModelCommand)
export class LoadModelHandler implements ICommandHandler<LoadModelCommand> {
  constructor(private readonly registry: ModelRegistry) {}

  async execute({ modelId, load }: LoadModelCommand): Promise<ModelWire> {
    const resolved = await this.registry.resolve(modelId);
    if (load) await resolved.provider.load(resolved.unique);
    else await resolved.provider.unload(resolved.unique);
    const view = (await this.registry.list()).find((v) => v.id === resolved.id);
    if (!view) throw new NotFound(`model ${modelId} is no longer listed by its provider`);
    return modelWire(view);
  }
}
