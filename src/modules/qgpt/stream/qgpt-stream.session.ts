import { isUUID } from 'class-validator';
import { HttpException, Injectable, Logger } from '@nestjs/common';
import { CommandBus, EventBus } from '@nestjs/cqrs';
import type { WebSocket } from 'ws';
import { Database } from '../../../common/database/database.service';
import { validationPipe } from '../../../common/http/validation';
import { CreateConversationCommand } from '../../conversations/commands/create-conversation.command';
import { ConversationReader } from '../../conversations/conversation.reader';
import { ConversationWriter } from '../../conversations/conversation.writer';
import { ConversationChangedEvent } from '../../conversations/events/conversation-changed.event';
import { ConversationMessageAddedEvent } from '../../conversations/events/conversation-message-added.event';
import { ChatMessage } from '../../intelligence/providers/model-provider';
import { ModelRegistry } from '../../models/model-registry';
import { QGPTQuestionInputDto, QGPTRelevanceInputDto } from '../dto/qgpt.dto';
import { QgptEngine } from '../qgpt-engine';
import { Snippet } from '../snippet-cache';
import { Outbox } from '../../../common/events/outbox';

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
 * The /qgpt/stream protocol of COMPATIBILITY.md on one socket: many questions at once, each
 * answered as IN-PROGRESS chunks then COMPLETED (without `question`), or FAILED with
 * statusCode and errorMessage; `{stop: true, conversation?}` stops questions in flight
 * (STOPPED), `{reset: true}` stops them all (RESET). The question and the answer are stored
 * as messages of the conversation, created up front when the input names none.
 */
@Injectable()
export class QgptStreamSession {
  private readonly logger = new Logger('QgptStream');

  constructor(
    private readonly engine: QgptEngine,
    private readonly registry: ModelRegistry,
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly commands: CommandBus,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  attach(socket: WebSocket): void {
    const inFlight = new Set<InFlight>();
    const send = (frame: OutputFrame) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : data.toString();
      if (text === null || text.length > MAX_FRAME) {
        send({ conversation: '', status: 'FAILED', statusCode: 400, errorMessage: 'send one JSON QGPTStreamInput per text frame' });
        return;
      }
      let input: Input;
      try {
        input = JSON.parse(text);
        if (!input || typeof input !== 'object' || Array.isArray(input)) throw new Error('not an object');
      } catch {
        send({ conversation: '', status: 'FAILED', statusCode: 400, errorMessage: 'the frame is not a JSON QGPTStreamInput object' });
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
    if (input.relevance && input.question) return fail(given ?? '', 400, 'send relevance or question, not both (relevance with options.question: true does both)');
    if (!input.relevance && !input.question) return fail(given ?? '', 400, 'a QGPTStreamInput needs relevance, question, stop or reset');
    if (given !== undefined && !isUUID(given)) return fail(given, 400, 'conversation must be the UUID of a conversation');

    let relevance: QGPTRelevanceInputDto | undefined;
    let question: QGPTQuestionInputDto | undefined;
    try {
      if (input.relevance) relevance = await validationPipe.transform(input.relevance, { type: 'body', metatype: QGPTRelevanceInputDto });
      else question = await validationPipe.transform(input.question, { type: 'body', metatype: QGPTQuestionInputDto });
    } catch (error) {
      return fail(given ?? '', 400, messageOf(error));
    }

    const entry: InFlight = { request, conversation: given ?? '', controller: new AbortController() };
    inFlight.add(entry);
    const signal = entry.controller.signal;
    let conversation = given ?? '';
    let questionStored: Promise<void> | null = null;
    try {
      const query = (relevance ?? question)!.query;
      const model = await this.registry.resolve((relevance ?? question)!.model);
      conversation = given ?? (await this.commands.execute(new CreateConversationCommand({ type: 'COPILOT', name: query.replace(/\s+/g, ' ').trim().slice(0, 80) || null } as never))).id;
      entry.conversation = conversation;
      const history = await this.history(conversation);

      let snippets: Snippet[];
      if (relevance) {
        const { docs, priors } = await this.engine.space(relevance);
        snippets = await this.engine.rank(query, docs, priors);
        if (!relevance.options?.question) {
          const relevant = { iterable: await Promise.all(snippets.map((s) => this.engine.seedWire(s))) };
          if (!signal.aborted) send({ ...(request ? { request } : {}), conversation, status: 'COMPLETED', relevance: { relevant } });
          return;
        }
      } else {
        snippets = this.engine.snippetsOf(question!.relevant.iterable);
        if (snippets.length === 0 && model.offline) {
          const { docs, priors } = await this.engine.database(query);
          snippets = await this.engine.rank(query, docs, priors);
        }
      }
      if (signal.aborted) return;
      // The question is stored while the model starts answering (its commit is not on the
      // path to the first chunk); the answer is stored after it.
      questionStored = this.store(conversation, 'USER', query);
      questionStored.catch(() => undefined);

      let answer = '';
      try {
        for await (const chunk of this.engine.answerStream(model, query, snippets, history, signal)) {
          if (signal.aborted) break;
          answer += chunk;
          send({ ...(request ? { request } : {}), conversation, status: 'IN-PROGRESS', question: { answers: { iterable: [{ score: 0, text: chunk }] } } });
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
      const status = error instanceof HttpException ? error.getStatus() : 500;
      if (status >= 500 && !(error instanceof HttpException)) this.logger.error((error as Error)?.stack ?? String(error));
      fail(conversation, status, status === 500 && !(error instanceof HttpException) ? 'internal error' : messageOf(error));
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
    const [message] = await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      const added = await this.writer.addMessages(em, conversationId, [{ role, text: text.replace(/\u0000/g, '') }]);
      await this.outbox.append(em, 'conversations', conversationId);
      return added;
    });
    this.events.publish(new ConversationChangedEvent(conversationId, 'updated'));
    this.events.publish(new ConversationMessageAddedEvent(conversationId, message.id, role));
  }
}

function messageOf(error: unknown): string {
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (response as { message?: string | string[] }).message;
    return Array.isArray(message) ? message.join('; ') : (message ?? error.message);
  }
  return (error as Error)?.message ?? String(error);
}
