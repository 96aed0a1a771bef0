import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { QGPTPersonsRelatedInputDto } from '../dto/qgpt.dto';
import { QGPTPersonsRelatedOutputWire } from '../wire/qgpt.wire';

/**
 * POST /qgpt/persons/related: the persons linked to the assets matching the seed or the
 * conversation. Trove records no persons (no asset is ever linked to one), so the answer is
 * always an empty list: never an invented person.
 */
export class PersonsRelatedQuery extends Query<QGPTPersonsRelatedOutputWire> {
  constructor(readonly input: QGPTPersonsRelatedInputDto | undefined) {
    super();
  }
}

@QueryHandler(PersonsRelatedQuery)
export class PersonsRelatedHandler implements IQueryHandler<PersonsRelatedQuery> {
  async execute(): Promise<QGPTPersonsRelatedOutputWire> {
    return { persons: { iterable: [] } };
  }
}
