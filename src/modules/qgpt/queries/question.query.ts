import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTQuestionInputDto } from '../dto/qgpt.dto';
import { QgptEngine } from '../qgpt-engine';
import { QGPTQuestionOutputWire } from '../wire/qgpt.wire';

/**
 * POST /qgpt/question: answers from the given relevant snippets (ids relevance returned, or
 * seeds with text). The offline engine answers with several scored passages; a language
 * model with its answer. With no snippets, the offline engine looks in the whole database
 * and a language model answers from its own knowledge.
 */
export class QuestionQuery extends Query<QGPTQuestionOutputWire> {
  constructor(readonly input: QGPTQuestionInputDto) {
    super();
  }
}

@QueryHandler(QuestionQuery)
export class QuestionHandler implements IQueryHandler<QuestionQuery> {
  constructor(
    private readonly engine: QgptEngine,
    private readonly registry: ModelRegistry,
  ) {}

  async execute({ input }: QuestionQuery): Promise<QGPTQuestionOutputWire> {
    let snippets = this.engine.snippetsOf(input.relevant.iterable);
    const model = await this.registry.resolve(input.model);
    if (snippets.length === 0 && model.offline) {
      const { docs, priors } = await this.engine.database(input.query);
      snippets = await this.engine.rank(input.query, docs, priors);
    }
    return { answers: { iterable: await this.engine.answers(model, input.query, snippets) } };
  }
}
