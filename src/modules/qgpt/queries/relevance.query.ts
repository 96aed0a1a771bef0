import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTRelevanceInputDto } from '../dto/qgpt.dto';
import { ModelAnswers } from '../model-answers';
import { RelevantSnippets } from '../relevant-snippets';
import { QGPTRelevanceOutputWire } from '../wire/qgpt.wire';

/**
 * POST /qgpt/relevance: the passages of exactly one query space (local paths under the
 * allowed roots, seeds, assets, or the whole database) that best match the query, with ids
 * and scores; with options.question also the answers to it.
 */
export class RelevanceQuery extends Query<QGPTRelevanceOutputWire> {
  constructor(readonly input: QGPTRelevanceInputDto) {
    super();
  }
}

@QueryHandler(RelevanceQuery)
export class RelevanceHandler implements IQueryHandler<RelevanceQuery> {
  constructor(
    private readonly relevant: RelevantSnippets,
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
  ) {}

  async execute({ input }: RelevanceQuery): Promise<QGPTRelevanceOutputWire> {
    const model = input.options?.question ? await this.registry.resolve(input.model) : null;
    const snippets = await this.relevant.of(input);
    const relevant = { iterable: await this.relevant.wire(snippets) };
    if (!model) return { relevant };
    return { relevant, answer: { answers: { iterable: await this.answers.answers(model, input.query, snippets) } } };
  }
}
