import { isUUID } from 'class-validator';
import { Injectable, Logger } from '@nestjs/common';
import { toErrorBody } from '../../../common/errors/all-exceptions.filter';
import { CommandBus } from '@nestjs/cqrs';
import type { WebSocket } from 'ws';
import { Database } from '../../../common/database/database.service';
import { validateInput } from '../../../common/validation/input';
import { AddMessageCommand } from '../../conversations/commands/add-message.command';
import { CreateConversationCommand } from '../../conversations/commands/create-conversation.command';
import { ConversationReader } from '../../conversations/conversation.reader';
import { ChatMessage } from '../../intelligence/providers/model-provider';
import { standaloneQuery } from '../../intelligence/text/extractive-answerer';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTQuestionInputDto, QGPTRelevanceInputDto } from '../dto/qgpt.dto';
import { ModelAnswers } from '../model-answers';
import { QuerySpace } from '../query-space';
import { RelevantSnippets } from '../relevant-snippets';
import { Snippet } from '../snippet-cache';
import { AppConfig } from '../../../common/config/app-config';
import { BodyBoundError, checkJsonBounds } from '../../../common/http/json-bounds';

/** Earlier messages of the conversation given to a language model. */
const HISTORY = 20;
const MAX_FRAME = 4 * 1024 * 1024;

/** One QGPTStreamOutput frame. */
interface OutputFrame {
  request?: string;
  conversation: string;
  status: 'IN-PROGRESS' | 'COMPLETED' | 'FAILED' | 'STOPPED' | 'RESET';
  question?: { answers: { iterable: Array<{ score: number; text: string }> } };
  relevance?: unknown;
  statusCode?: number;
  errorMessage?: string;
}

interface InFlight {
  request?: string;
  conversation: string;
  controller: AbortController;
}

type Input = Record<string, unknown>;

/**
 * The /qgpt/stream protocol real clients speak (docs/CLIENTS.md) on one socket: many questions at once, each
 * answered as IN-PROGRESS chunks then COMPLETED (without `question`), or FAILED with
 * statusCode and errorMessage; `{stop: true, conversation?}` stops questions in flight
 * (STOPPED), `{reset: true}` stops them all (RESET). The question and the answer are stored
 * as messages of the conversation, created up front when the input names none.
 */
@Injectable()
export class QgptStreamSession {
  private readonly logger = new Logger('QgptStream');

  constructor(
    private readonly space: QuerySpace,
    private readonly relevant: RelevantSnippets,
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly commands: CommandBus,
    private readonly config: AppConfig,
  ) {}

  attach(socket: WebSocket): void {
    const inFlight = new Set<InFlight>();
    const send = (frame: OutputFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : data.toString();
      if (text === null || text.length > MAX_FRAME) {
        send({
          conversation: '',
          status: 'FAILED',
          statusCode: 400,
          errorMessage: 'send one JSON QGPTStreamInput per text frame',
        });
        return;
      }
      let input: Input;
      try {
        input = JSON.parse(text);
        if (!input || typeof input !== 'object' || Array.isArray(input)) throw new Error('not an object');
      } catch {
        send({
          conversation: '',
          status: 'FAILED',
          statusCode: 400,
          errorMessage: 'the frame is not a JSON QGPTStreamInput object',
        });
        return;
      }
      try {
        // The bounds of HTTP bodies hold for frames too (depth, sizes, NUL, lone surrogates).
        checkJsonBounds(input, {
          maxDepth: this.config.maxJsonDepth,
          maxArrayLength: this.config.maxArrayLength,
          maxStringLength: this.config.maxStringLength,
        });
      } catch (error) {
        const request = typeof input.request === 'string' ? { request: input.request } : {};
        send({
          ...request,
          conversation: '',
          status: 'FAILED',
          statusCode: (error as BodyBoundError).statusCode ?? 400,
          errorMessage: (error as Error).message,
        });
        return;
      }
      void this.handle(input, inFlight, send);
    });
    socket.on('close', () => {
      for (const q of inFlight) q.controller.abort();
      inFlight.clear();
    });
  }

  private async handle(input: Input, inFlight: Set<InFlight>, send: (f: OutputFrame) => void): Promise<void> {
    const request = typeof input.request === 'string' ? input.request : undefined;
    const given = typeof input.conversation === 'string' ? input.conversation : undefined;
    const fail = (conversation: string, statusCode: number, errorMessage: string) =>
      send({ ...(request ? { request } : {}), conversation, status: 'FAILED', statusCode, errorMessage });

    if (input.reset === true) {
      for (const q of inFlight) q.controller.abort();
      inFlight.clear();
      send({ ...(request ? { request } : {}), conversation: given ?? '', status: 'RESET' });
      return;
    }
    if (input.stop === true) {
      const stopped = [...inFlight].filter((q) => !given || q.conversation === given);
      for (const q of stopped) {
        q.controller.abort();
        inFlight.delete(q);
        send({ ...(q.request ? { request: q.request } : {}), conversation: q.conversation, status: 'STOPPED' });
      }
      if (stopped.length === 0) send({ ...(request ? { request } : {}), conversation: given ?? '', status: 'STOPPED' });
      return;
    }
    if (input.relevance && input.question)
      return fail(
        given ?? '',
        400,
        'send relevance or question, not both (relevance with options.question: true does both)',
      );
    if (!input.relevance && !input.question)
      return fail(given ?? '', 400, 'a QGPTStreamInput needs relevance, question, stop or reset');
    if (given !== undefined && !isUUID(given))
      return fail(given, 400, 'conversation must be the UUID of a conversation');

    let relevance: QGPTRelevanceInputDto | undefined;
    let question: QGPTQuestionInputDto | undefined;
    try {
      if (input.relevance) relevance = await validateInput(QGPTRelevanceInputDto, input.relevance);
      else question = await validateInput(QGPTQuestionInputDto, input.question);
    } catch (error) {
      return fail(given ?? '', 400, (error as Error).message);
    }

    const entry: InFlight = { request, conversation: given ?? '', controller: new AbortController() };
    inFlight.add(entry);
    const signal = entry.controller.signal;
    let conversation = given ?? '';
    let questionStored: Promise<void> | null = null;
    try {
      const query = (relevance ?? question)!.query;
      const model = await this.registry.resolve((relevance ?? question)!.model);
      conversation =
        given ??
        (
          await this.commands.execute(
            new CreateConversationCommand({ type: 'COPILOT', name: chatName(query) || null } as never),
          )
        ).id;
      entry.conversation = conversation;
      const history = given ? await this.history(conversation) : []; // a chat just created has none

      let snippets: Snippet[];
      // What the store is searched and the offline engine quotes with: the follow-up made
      // standalone from the conversation so far ("how do I test it?" + what "it" was).
      let lookup = query;
      if (relevance) {
        lookup = standaloneQuery(
          query,
          history.map((m) => ({ role: m.role === 'user' ? 'USER' : 'ASSISTANT', text: m.content })),
        );
        snippets = await this.relevant.of(relevance, lookup);
        if (!relevance.options?.question) {
          const relevant = { iterable: await this.relevant.wire(snippets) };
          if (!signal.aborted)
            send({ ...(request ? { request } : {}), conversation, status: 'COMPLETED', relevance: { relevant } });
          return;
        }
      } else {
        snippets = this.space.given(question!.relevant.iterable);
        if (snippets.length === 0 && model.offline) snippets = await this.relevant.fromStore(query);
      }
      if (signal.aborted) return;
      // The question is stored while the model starts answering (its commit is not on the
      // path to the first chunk); the answer is stored after it.
      questionStored = this.store(conversation, 'USER', query);
      questionStored.catch(() => undefined);

      let answer = '';
      try {
        // A language model gets the question as asked, with the conversation; the offline engine quotes for the lookup.
        for await (const chunk of this.answers.stream(
          model,
          model.offline ? lookup : query,
          snippets,
          history,
          signal,
        )) {
          if (signal.aborted) break;
          answer += chunk;
          send({
            ...(request ? { request } : {}),
            conversation,
            status: 'IN-PROGRESS',
            question: { answers: { iterable: [{ score: 0, text: chunk }] } },
          });
        }
      } catch (error) {
        if (!signal.aborted) throw error;
      }
      await questionStored;
      if (answer) await this.store(conversation, 'ASSISTANT', answer);
      if (!signal.aborted) send({ ...(request ? { request } : {}), conversation, status: 'COMPLETED' });
    } catch (error) {
      // The question is committed (or failed) before the client hears of the failure.
      await questionStored?.catch(() => undefined);
      if (signal.aborted) return;
      const body = toErrorBody(error, this.logger); // what HTTP would answer (a 500 is logged there)
      fail(conversation, body.statusCode, Array.isArray(body.message) ? body.message.join('; ') : body.message);
    } finally {
      inFlight.delete(entry);
    }
  }

  /** The conversation's earlier messages as chat turns (404/410 when it does not exist). */
  private async history(conversationId: string): Promise<ChatMessage[]> {
    const messages = await this.db.read(async (em) => {
      await this.reader.require(em, conversationId);
      return this.reader.messages(em, conversationId);
    });
    return messages
      .filter((m) => !m.deletedAt && m.text.trim() && (m.role === 'USER' || m.role === 'ASSISTANT'))
      .slice(-HISTORY)
      .map((m) => ({ role: m.role === 'USER' ? ('user' as const) : ('assistant' as const), content: m.text }));
  }

  private async store(conversationId: string, role: 'USER' | 'ASSISTANT', text: string): Promise<void> {
    // A chat its client created without a name (`pieces chat -n`, `ask -f`) is named after its first question.
    const name = role === 'USER' ? chatName(text) : undefined;
    await this.commands.execute(
      new AddMessageCommand(conversationId, { role, text: text.replaceAll('\u0000', '') }, name),
    );
  }
}

/** A chat's name from its first question: the question on one line, at most 80 characters. */
function chatName(question: string): string {
  return question.replace(/\s+/g, ' ').trim().slice(0, 80);
}
