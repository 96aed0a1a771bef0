import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTHintsInputDto } from '../dto/qgpt.dto';
import { ModelAnswers } from '../model-answers';
import { QuerySpace } from '../query-space';
import { QGPTQuestionOutputWire } from '../wire/qgpt.wire';

/**
 * POST /qgpt/hints: follow-up questions. Offline: questions about the definitions and key
 * phrases of the snippets and answer that the previous query did not already ask about.
 */
export class HintsQuery extends Query<QGPTQuestionOutputWire> {
  constructor(readonly input: QGPTHintsInputDto) {
    super();
  }
}

@QueryHandler(HintsQuery)
export class HintsHandler implements IQueryHandler<HintsQuery> {
  constructor(
    private readonly space: QuerySpace,
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
  ) {}

  async execute({ input }: HintsQuery): Promise<QGPTQuestionOutputWire> {
    const snippets = this.space.given(input.relevant.iterable);
    const model = await this.registry.resolve(input.model);
    return {
      answers: { iterable: await this.answers.hints(model, input.query ?? '', input.answer?.text ?? '', snippets) },
    };
  }
}
