import { BadRequestException, Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag } from '../../common/wire/flags';
import { QGPTHintsInputDto, QGPTPersonsRelatedInputDto, QGPTQuestionInputDto, QGPTRelevanceInputDto, QGPTRepromptInputDto } from './dto/qgpt.dto';
import { HintsQuery } from './queries/hints.query';
import { PersonsRelatedQuery } from './queries/persons-related.query';
import { QuestionQuery } from './queries/question.query';
import { RelevanceQuery } from './queries/relevance.query';
import { RepromptQuery } from './queries/reprompt.query';
import { QGPTPersonsRelatedOutputWire, QGPTQuestionOutputWire, QGPTRelevanceOutputWire, QGPTRepromptOutputWire } from './wire/qgpt.wire';

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
    summary: 'The most relevant snippets of one query space (paths, seeds, assets or the database), optionally answered',
  })
  @ApiBody({ type: QGPTRelevanceInputDto, required: false })
  relevance(@Body() input: QGPTRelevanceInputDto): Promise<QGPTRelevanceOutputWire> {
    return this.queries.execute(new RelevanceQuery(required(input, 'QGPTRelevanceInput')));
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
  @ApiOperation({ operationId: 'personsRelated', summary: 'Persons linked to matching assets (Trove records none: always empty)' })
  @ApiBody({ type: QGPTPersonsRelatedInputDto, required: false })
  personsRelated(@Body() input: QGPTPersonsRelatedInputDto, @Flag('transferables') transferables?: boolean): Promise<QGPTPersonsRelatedOutputWire> {
    void transferables;
    return this.queries.execute(new PersonsRelatedQuery(input));
  }
}
