import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { DomainError } from '../../../common/errors/domain-errors';
import { WorkstreamSummaryReader } from '../../assets/workstream-summary.reader';
import { ConversationReader } from '../../conversations/conversation.reader';
import { contentTerms } from '../../intelligence/text/extractive-answerer';
import { ModelRegistry } from '../../models/model-registry';
import { LocalFiles } from '../../qgpt/local-files';
import { QgptEngine } from '../../qgpt/qgpt-engine';
import { Document, Snippet } from '../../qgpt/snippet-cache';

/** Memories and conversation messages read as candidates; passages quoted or sent to the model. */
const MEMORIES = 10;
const MESSAGES = 30;
const PASSAGES = 8;
/** Words of the question a conversation message is matched on (the longest ones). */
const MESSAGE_WORDS = 6;

/** What an agent asks of the whole memory: ask_pieces_ltm's arguments. */
export interface MemoryQuestion {
  question: string;
  topics?: string[];
  openFiles?: string[];
  relatedQuestions?: string[];
}

export interface MemoryAnswer {
  /** The answer: the model's text, or the offline engine's quoted passages. */
  text: string;
  /** Which engine answered, in one sentence. */
  engine: string;
  sources: Array<{ kind: 'snippet' | 'memory' | 'conversation' | 'file'; id: string; title: string; score: number }>;
  /** Open files that could not be read, and why. */
  skippedFiles: string[];
}

/**
 * ask_pieces_ltm: a question answered over the saved snippets, the memories (workstream
 * summaries) and the conversations, plus the files the agent has open (when this server may read
 * them, TROVE_QGPT_ROOTS), by the default model (TROVE_DEFAULT_MODEL); the offline engine quotes
 * the best passages with their scores and sources.
 */
export class AskMemoryQuery extends Query<MemoryAnswer> {
  constructor(readonly input: MemoryQuestion) {
    super();
  }
}

@QueryHandler(AskMemoryQuery)
export class AskMemoryHandler implements IQueryHandler<AskMemoryQuery> {
  constructor(
    private readonly db: Database,
    private readonly engine: QgptEngine,
    private readonly registry: ModelRegistry,
    private readonly memories: WorkstreamSummaryReader,
    private readonly conversations: ConversationReader,
    private readonly files: LocalFiles,
  ) {}

  async execute({ input }: AskMemoryQuery): Promise<MemoryAnswer> {
    const question = input.question.trim();
    const retrieval = [question, ...(input.topics ?? []), ...(input.relatedQuestions ?? [])].join('\n');
    const model = await this.registry.resolve();

    const snippets = await this.engine.database(retrieval);
    const docs: Document[] = [...snippets.docs];
    const priors: number[] = [...snippets.priors];
    const words = [...new Set(contentTerms(retrieval))].sort((a, b) => b.length - a.length).slice(0, MESSAGE_WORDS);
    await this.db.read(async (em) => {
      for (const hit of await this.memories.search(em, retrieval, MEMORIES)) {
        const text = [hit.name, hit.description ?? '', hit.text, hit.project ? `Project: ${hit.project}` : '', ...hit.files, ...hit.links]
          .filter(Boolean)
          .join('\n\n');
        docs.push({ text, memoryId: hit.id, retrieved: true, title: `memory “${hit.name}” (${hit.created.slice(0, 10)})`, generic: 'TEXT', specific: 'md' });
        priors.push(hit.score);
      }
      for (const message of await this.conversations.messagesMatching(em, words, MESSAGES)) {
        const title = `conversation “${message.conversationName ?? 'Untitled'}”, ${message.role.toLowerCase()} message (${message.createdAt.slice(0, 10)})`;
        docs.push({ text: message.text, conversationId: message.conversationId, retrieved: true, title, generic: 'TEXT', specific: 'md' });
        priors.push(0.5);
      }
    });
    const skippedFiles: string[] = [];
    for (const path of new Set(input.openFiles ?? [])) {
      try {
        for (const file of await this.files.read([path])) {
          docs.push({ text: file.text, path: file.path, retrieved: true });
          priors.push(1);
        }
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        skippedFiles.push(`${path}: ${error.message}`);
      }
    }

    const passages = await this.engine.rank(retrieval, docs, priors, PASSAGES);
    const answers = await this.engine.answers(model, question, passages);
    return {
      text: answers.map((a) => a.text).join('\n\n'),
      engine: model.offline
        ? `Answered by Trove's offline engine, which quotes the stored passages that best match the question and does not generate text (set TROVE_DEFAULT_MODEL to a language model for written answers).`
        : `Answered by ${model.name} (TROVE_DEFAULT_MODEL) from the passages listed below.`,
      sources: sourcesOf(passages),
      skippedFiles,
    };
  }
}

/** Each source once, best score first. */
function sourcesOf(passages: Snippet[]): MemoryAnswer['sources'] {
  const out = new Map<string, MemoryAnswer['sources'][number]>();
  for (const p of passages) {
    const [kind, id] = p.memoryId
      ? (['memory', p.memoryId] as const)
      : p.conversationId
        ? (['conversation', p.conversationId] as const)
        : p.assetId
          ? (['snippet', p.assetId] as const)
          : (['file', p.path ?? ''] as const);
    const key = `${kind}:${id}`;
    const known = out.get(key);
    const title = kind === 'snippet' ? `snippet “${p.title ?? 'Unnamed snippet'}”` : (p.title ?? p.path ?? id); // memories' and conversations' titles name their kind
    if (!known || known.score < p.score) out.set(key, { kind, id, title, score: p.score });
  }
  return [...out.values()].sort((a, b) => b.score - a.score);
}
