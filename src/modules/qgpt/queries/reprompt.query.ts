import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTRepromptInputDto } from '../dto/qgpt.dto';
import { ModelAnswers } from '../model-answers';
import { QGPTRepromptOutputWire } from '../wire/qgpt.wire';

/**
 * POST /qgpt/reprompt: a follow-up plus the conversation so far as one standalone query.
 * Offline: the follow-up, with the main terms of the latest user turn appended when it leans
 * on them ("how do I test it?"); with a language model, its rewrite.
 */
export class RepromptQuery extends Query<QGPTRepromptOutputWire> {
  constructor(readonly input: QGPTRepromptInputDto) {
    super();
  }
}

@QueryHandler(RepromptQuery)
export class RepromptHandler implements IQueryHandler<RepromptQuery> {
  constructor(
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
  ) {}

  async execute({ input }: RepromptQuery): Promise<QGPTRepromptOutputWire> {
    const model = await this.registry.resolve(input.model);
    const history = (input.conversation.iterable ?? []).map((m) => ({ role: m.role, text: m.text }));
    return { query: await this.answers.reprompt(model, input.query, history) };
  }
}
