import { BadRequestException, Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { callerOf, mergeAcrossStores } from '../../common/http/team-caller';
import { Flag } from '../../common/wire/flags';
import {
  QGPTHintsInputDto,
  QGPTPersonsRelatedInputDto,
  QGPTQuestionInputDto,
  QGPTRelevanceInputDto,
  QGPTRepromptInputDto,
} from './dto/qgpt.dto';
import { HintsQuery } from './queries/hints.query';
import { PersonsRelatedQuery } from './queries/persons-related.query';
import { QuestionQuery } from './queries/question.query';
import { RelevanceQuery } from './queries/relevance.query';
import { RepromptQuery } from './queries/reprompt.query';
import {
  QGPTPersonsRelatedOutputWire,
  QGPTQuestionOutputWire,
  QGPTRelevanceOutputWire,
  QGPTRepromptOutputWire,
} from './wire/qgpt.wire';

function required<T>(body: T | undefined, what: string): T {
  if (body === undefined || body === null) throw new BadRequestException(`a ${what} body is required`);
  return body;
}

/** /qgpt/...: relevance, question, reprompt, hints, persons/related (the stream is QgptStreamGateway). */
@ApiTags('QGPT')
@Controller('qgpt')
export class QgptController {
  constructor(private readonly queries: QueryBus) {}

  @Post('relevance')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'relevance',
    summary:
      'The most relevant snippets of one query space (paths, seeds, assets or the database), optionally answered',
  })
  @ApiBody({ type: QGPTRelevanceInputDto, required: false })
  async relevance(
    @Body() input: QGPTRelevanceInputDto,
    @Req() request: FastifyRequest,
  ): Promise<QGPTRelevanceOutputWire> {
    const query = new RelevanceQuery(required(input, 'QGPTRelevanceInput'));
    const caller = callerOf(request.raw);
    if (!caller?.everywhere) return this.queries.execute(query);
    // Across stores: one list of the best passages of each, and the answer (when asked) of the
    // store the best passage comes from.
    const answers = await caller.inEachStore((app) =>
      app.get(QueryBus).execute<RelevanceQuery, QGPTRelevanceOutputWire>(query),
    );
    const longest = Math.max(0, ...answers.map((a) => a.value.relevant.iterable.length));
    const iterable = mergeAcrossStores(
      answers.map(({ store, value }) => ({ store, value: value.relevant.iterable })),
      (seed) => seed.score,
      longest,
    );
    const best = answers.find((a) => iterable[0] && a.store.space === iterable[0].space.space);
    return { relevant: { iterable }, ...(best?.value.answer ? { answer: best.value.answer } : {}) };
  }

  @Post('question')
  @HttpCode(200)
  @ApiOperation({ operationId: 'question', summary: 'Answers to a question from relevant snippets, each with a score' })
  @ApiBody({ type: QGPTQuestionInputDto, required: false })
  question(@Body() input: QGPTQuestionInputDto): Promise<QGPTQuestionOutputWire> {
    return this.queries.execute(new QuestionQuery(required(input, 'QGPTQuestionInput')));
  }

  @Post('reprompt')
  @HttpCode(200)
  @ApiOperation({ operationId: 'reprompt', summary: 'A follow-up question plus history as a standalone query' })
  @ApiBody({ type: QGPTRepromptInputDto, required: false })
  reprompt(@Body() input: QGPTRepromptInputDto): Promise<QGPTRepromptOutputWire> {
    return this.queries.execute(new RepromptQuery(required(input, 'QGPTRepromptInput')));
  }

  @Post('hints')
  @HttpCode(200)
  @ApiOperation({ operationId: 'hints', summary: 'Suggested follow-up questions' })
  @ApiBody({ type: QGPTHintsInputDto, required: false })
  hints(@Body() input: QGPTHintsInputDto): Promise<QGPTQuestionOutputWire> {
    return this.queries.execute(new HintsQuery(required(input, 'QGPTHintsInput')));
  }

  @Post('persons/related')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'personsRelated',
    summary: 'Persons linked to matching assets (Trove records none: always empty)',
  })
  @ApiBody({ type: QGPTPersonsRelatedInputDto, required: false })
  personsRelated(
    @Body() input: QGPTPersonsRelatedInputDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<QGPTPersonsRelatedOutputWire> {
    void transferables;
    return this.queries.execute(new PersonsRelatedQuery(input));
  }
}
