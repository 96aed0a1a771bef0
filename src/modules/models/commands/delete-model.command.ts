import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { ModelStore } from '../model.store';

/** POST /models/{model}/delete: only custom models; provider models belong to their provider. */
export class DeleteModelCommand extends Command<void> {
  constructor(readonly modelId: string) {
    super();
  }
}

@CommandHandler(DeleteModelCommand)
export class DeleteModelHandler implements ICommandHandler<DeleteModelCommand> {
  constructor(private readonly store: ModelStore) {}

  async execute({ modelId }: DeleteModelCommand): Promise<void> {
    const row = await this.store.one(modelId);
    if (!row) throw new NotFound(`model ${modelId} not found`);
    if (!row.custom) {
      throw new InvalidInput(
        `model ${modelId} (${row.name}) is not a custom model: only models made with POST /models/create can be deleted`,
      );
    }
    await this.store.remove([row.id]);
  }
}
