import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { NotFound } from '../../../common/errors/domain-errors';
import { ModelRegistry } from '../model-registry';
import { ModelWire, modelWire } from '../wire/model.wire';

/** GET /model/{model}: one model as GET /models shows it (404 when no reachable provider or custom model has it). */
export class GetModelQuery extends Query<ModelWire> {
  constructor(readonly modelId: string) {
    super();
  }
}

@QueryHandler(GetModelQuery)
export class GetModelHandler implements IQueryHandler<GetModelQuery> {
  constructor(private readonly registry: ModelRegistry) {}

  async execute({ modelId }: GetModelQuery): Promise<ModelWire> {
    const view = (await this.registry.list()).find((v) => v.id === modelId.toLowerCase());
    if (!view) throw new NotFound(`model ${modelId} not found`);
    return modelWire(view);
  }
}
