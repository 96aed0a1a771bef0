import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../model-registry';
import { ModelsWire, modelWire } from '../wire/model.wire';

/** GET /models: the offline engine, every model of every reachable provider, then the custom models. */
export class ListModelsQuery extends Query<ModelsWire> {}

@QueryHandler(ListModelsQuery)
export class ListModelsHandler implements IQueryHandler<ListModelsQuery> {
  constructor(private readonly registry: ModelRegistry) {}

  async execute(): Promise<ModelsWire> {
    return { iterable: (await this.registry.list()).map(modelWire) };
  }
}
