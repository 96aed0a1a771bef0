import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTQuestionInputDto } from '../dto/qgpt.dto';
import { ModelAnswers } from '../model-answers';
import { QuerySpace } from '../query-space';
import { RelevantSnippets } from '../relevant-snippets';
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
    private readonly space: QuerySpace,
    private readonly relevant: RelevantSnippets,
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
  ) {}

  async execute({ input }: QuestionQuery): Promise<QGPTQuestionOutputWire> {
    let snippets = this.space.given(input.relevant.iterable);
    const model = await this.registry.resolve(input.model);
    if (snippets.length === 0 && model.offline) snippets = await this.relevant.fromStore(input.query);
    return { answers: { iterable: await this.answers.answers(model, input.query, snippets) } };
  }
}
