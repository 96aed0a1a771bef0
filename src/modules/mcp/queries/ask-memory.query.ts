import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { DomainError } from '../../../common/errors/domain-errors';
import { MemoryRecord, WorkstreamSummaryReader } from '../../assets/workstream-summary.reader';
import { ConversationReader } from '../../conversations/conversation.reader';
import { contentTerms } from '../../intelligence/text/extractive-answerer';
import { CANNOT_GENERATE, offlineRequest } from '../../intelligence/text/offline-requests';
import { NamedTime, namedTimes, nearness, withoutTimes } from '../../intelligence/text/time-words';
import { ModelRegistry } from '../../models/model-registry';
import { Retrieval } from '../../search/retrieval.service';
import { LocalFiles } from '../../qgpt/local-files';
import { ModelAnswers } from '../../qgpt/model-answers';
import { Document, Snippet } from '../../qgpt/snippet-cache';

/** Passages (and sources) an answer gives without a `limit`; the most it may ask for. */
export const DEFAULT_PASSAGES = 8;
export const MAX_PASSAGES = 50;
/** Memories read as candidates: at least this many, and POOL_PER_PASSAGE times the passages asked for. */
const MEMORIES = 20;
/** Full-text matches read per passage asked for, to be ranked again by their passages. */
const POOL_PER_PASSAGE = 6;
/** Memories about a time the question names, read besides the best ones, of the TIME_POOL best matches of its words. */
const NEAR_MEMORIES = 50;
const TIME_POOL = 150;
const MESSAGES = 30;
/** Words of the question a conversation message is matched on (the longest ones). */
const MESSAGE_WORDS = 6;
/** A memory is quoted whole up to this many characters; a longer one by its best passage. */
const WHOLE_MEMORY = 2000;
/**
 * How much the time a question names weighs: a candidate's score is multiplied by
 * (1 - TIME_WEIGHT) + TIME_WEIGHT * nearness (1 inside the time named, less the farther away).
 */
const TIME_WEIGHT = 0.5;
/**
 * How much a memory's full-text score (over the whole store, with its words' other forms: the
 * passage ranking sees only the candidates) weighs in its score, against its best passage's.
 */
const INDEX_WEIGHT = 0.3;
/** How much a memory's cosine to the question in the embedding model counts when no passage of it scored higher. */
const NEAR_WEIGHT = 0.5;
/** The score of a memory found only by the time it is about (no word of the question in it), times its nearness. */
const TIME_ONLY = 0.2;

/** What an agent asks of the whole memory: ask_pieces_ltm's arguments. */
export interface MemoryQuestion {
  question: string;
  topics?: string[];
  openFiles?: string[];
  relatedQuestions?: string[];
  /** Passages and sources: 1 to 50 (DEFAULT_PASSAGES without it). */
  limit?: number;
  /** What relative times ("yesterday") are relative to: now when left out. */
  now?: Date;
}

export interface MemorySource {
  kind: 'snippet' | 'memory' | 'conversation' | 'file';
  id: string;
  title: string;
  score: number;
  /** The time it is about (memories) or was said (messages), YYYY-MM-DD; none for snippets and files. */
  time?: string;
}

export interface MemoryAnswer {
  /** The answer: the model's text, or the offline engine's quoted passages. */
  text: string;
  /** Which engine answered, in one sentence. */
  engine: string;
  /** The sources, in the order (and with the scores) of the passages: one passage per source. */
  sources: MemorySource[];
  /** Open files that could not be read, and why. */
  skippedFiles: string[];
}

/**
 * ask_pieces_ltm: a question answered over the saved snippets, the memories (workstream
 * summaries) and the conversations, plus the files the agent has open (when this server may read
 * them, TROVE_QGPT_ROOTS), by the default model (TROVE_DEFAULT_MODEL); the offline engine quotes
 * the best passages with their scores and sources. One ranked list: each source once, with its
 * best passage and that passage's score, the quotes and the Sources in the same order; a time the
 * question names ("last May", "in 2023") weighs in; two copies of one text are quoted once.
 */
export class AskMemoryQuery extends Query<MemoryAnswer> {
  constructor(readonly input: MemoryQuestion) {
    super();
  }
}

/** A candidate: a document to rank, and what the answer says of it. */
interface Candidate {
  doc: Document;
  prior: number;
  /** The time it is about (ISO-8601), when it has one. */
  time?: string;
  /** What a quote of it shows: the heading and, for a memory, its own text. */
  heading: string;
  body?: string;
  /** Found only by the time it is about. */
  byTime?: boolean;
  /** Its cosine to the question in the embedding model, when the model vector index found it. */
  near?: number;
}

@QueryHandler(AskMemoryQuery)
export class AskMemoryHandler implements IQueryHandler<AskMemoryQuery> {
  constructor(
    private readonly db: Database,
    private readonly retrieval: Retrieval,
    private readonly answers: ModelAnswers,
    private readonly registry: ModelRegistry,
    private readonly memories: WorkstreamSummaryReader,
    private readonly conversations: ConversationReader,
    private readonly files: LocalFiles,
  ) {}

  async execute({ input }: AskMemoryQuery): Promise<MemoryAnswer> {
    const question = input.question.trim();
    const limit = Math.min(MAX_PASSAGES, Math.max(1, Math.floor(input.limit ?? DEFAULT_PASSAGES)));
    const times = namedTimes(question, input.now ?? new Date());
    // The words that name a time are not what the question is about ("may" of "last May").
    const retrieval = [withoutTimes(question, times), ...(input.topics ?? []), ...(input.relatedQuestions ?? [])].join(
      '\n',
    );
    const model = await this.registry.resolve();

    const candidates: Candidate[] = [];
    const snippets = await this.retrieval.candidates(retrieval);
    snippets.docs.forEach((doc, i) =>
      candidates.push({ doc, prior: snippets.priors[i], heading: `snippet “${doc.title ?? 'Unnamed snippet'}”` }),
    );
    const words = [...new Set(contentTerms(retrieval))].sort((a, b) => b.length - a.length).slice(0, MESSAGE_WORDS);
    // With an embedding model configured: the memories nearest to the question in it, over all of
    // them (found whatever words they share with it).
    const near = await this.retrieval.nearestMemories(retrieval, Math.max(MEMORIES, 2 * limit));
    await this.db.read(async (em) => {
      const seen = new Set<string>();
      const add = (hit: MemoryRecord, prior: number, byTime = false) => {
        if (seen.has(hit.id)) return;
        seen.add(hit.id);
        candidates.push({
          doc: memoryDocument(hit),
          prior,
          time: hit.about,
          heading: `memory “${hit.name}”`,
          body: hit.text,
          byTime,
        });
      };
      // One full-text search: its best, and (when the question names a time) its best about that time.
      const pool = Math.max(MEMORIES, POOL_PER_PASSAGE * limit);
      const hits = await this.memories.search(em, retrieval, times.length ? Math.max(TIME_POOL, pool) : pool);
      hits.slice(0, pool).forEach((hit) => add(hit, hit.score));
      if (near.length) {
        const closeness = new Map(near.map((hit) => [hit.id, hit.score]));
        for (const record of await this.memories.liveLinked(
          em,
          near.map((hit) => hit.id),
        ))
          add(record, 0);
        for (const c of candidates)
          if (c.doc.memoryId && closeness.has(c.doc.memoryId)) {
            c.near = closeness.get(c.doc.memoryId);
            c.doc.near = true;
          }
      }
      for (const time of times) {
        const [from, to] = [time.from.toISOString(), time.to.toISOString()];
        const near = hits.filter((hit) => hit.about >= from && hit.about < to).slice(0, NEAR_MEMORIES);
        for (const hit of near) add(hit, hit.score);
        // Nothing about that time has the question's words: those about it, for the time alone.
        if (near.length === 0)
          for (const hit of await this.memories.about(em, from, to, NEAR_MEMORIES)) add(hit, 0, true);
      }
      for (const message of await this.conversations.messagesMatching(em, words, MESSAGES)) {
        const title = `conversation “${message.conversationName ?? 'Untitled'}”, ${message.role.toLowerCase()} message`;
        candidates.push({
          doc: {
            text: message.text,
            conversationId: message.conversationId,
            retrieved: true,
            title,
            generic: 'TEXT',
            specific: 'md',
            prose: true,
          },
          prior: 0.5,
          time: message.createdAt,
          heading: title,
        });
      }
    });
    const skippedFiles: string[] = [];
    for (const path of new Set(input.openFiles ?? [])) {
      try {
        for (const file of await this.files.read([path])) {
          candidates.push({
            doc: { text: file.text, path: file.path, retrieved: true },
            prior: 1,
            heading: `\`${file.path}\``,
          });
        }
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        skippedFiles.push(`${path}: ${error.message}`);
      }
    }

    const ranked = await this.rank(retrieval, candidates, times, limit);
    const passages: Snippet[] = ranked.map((r) => ({ ...r.candidate.doc, id: r.key, text: r.text, score: r.score }));
    let text: string;
    if (model.offline) {
      const generate = offlineRequest(question).kind === 'generate';
      const quotes = ranked.map((r, i) => quote(i + 1, r));
      text = [
        ...(generate ? [CANNOT_GENERATE] : []),
        ...(quotes.length
          ? quotes
          : ['Nothing in the memory, the snippets or the conversations matches this question.']),
      ].join('\n\n');
    } else {
      text = (await this.answers.answers(model, question, passages)).map((a) => a.text).join('\n\n');
    }
    return {
      text,
      engine: model.offline
        ? `Answered by Trove's offline engine, which quotes the stored passages that best match the question and does not generate text (set TROVE_DEFAULT_MODEL to a language model for written answers).`
        : `Answered by ${model.name} (TROVE_DEFAULT_MODEL) from the passages listed below.`,
      sources: ranked.map((r) => r.source),
      skippedFiles,
    };
  }

  /**
   * The candidates ranked once: each by its best passage (BM25, coverage, its prior, the offline
   * embedding; Retrieval.passages), times its nearness to a time the question names; one
   * entry per source, one per distinct text, best first, at most `limit`.
   */
  private async rank(retrieval: string, candidates: Candidate[], times: NamedTime[], limit: number): Promise<Ranked[]> {
    const docs = candidates.map((c) => c.doc);
    const scored = docs.length
      ? await this.retrieval.passages(
          retrieval,
          docs,
          candidates.map((c) => c.prior),
          { lenient: true },
        )
      : [];
    const best = new Map<number, { text: string; score: number }>();
    for (const p of scored) if (!best.has(p.doc)) best.set(p.doc, { text: p.text, score: p.score });
    const timed = (c: Candidate, score: number) =>
      times.length && c.time
        ? score * (1 - TIME_WEIGHT + TIME_WEIGHT * nearness(c.time, times))
        : times.length
          ? score * (1 - TIME_WEIGHT)
          : score;
    const entries: Array<{ i: number; text: string; score: number }> = [];
    candidates.forEach((c, i) => {
      const found = best.get(i);
      // A memory the model vector index found is worth at least its half of a passage's score
      // (half words, half the model's cosine: Retrieval.passages), though no word of it matched.
      if (c.near !== undefined)
        entries.push({
          i,
          text: found?.text ?? c.doc.text,
          score: timed(c, Math.max(found?.score ?? 0, NEAR_WEIGHT * c.near)),
        });
      else if (found)
        entries.push({
          i,
          text: found.text,
          score: timed(
            c,
            c.body !== undefined ? (1 - INDEX_WEIGHT) * found.score + INDEX_WEIGHT * c.prior : found.score,
          ),
        });
      else if (c.byTime && c.time) entries.push({ i, text: c.doc.text, score: TIME_ONLY * nearness(c.time, times) });
    });
    entries.sort((a, b) => b.score - a.score || a.i - b.i);
    const out: Ranked[] = [];
    const keys = new Set<string>();
    const texts = new Set<string>();
    for (const e of entries) {
      if (out.length >= limit) break;
      const c = candidates[e.i];
      const [kind, id] = sourceKey(c.doc);
      const key = `${kind}:${id}`;
      // One entry per source, and one per text: two memories (or snippets) holding the same words are one.
      const same = normalised(c.body ?? c.doc.text);
      if (keys.has(key) || texts.has(same)) continue;
      keys.add(key);
      texts.add(same);
      const score = Math.round(e.score * 1e3) / 1e3;
      const shown =
        c.body !== undefined
          ? c.body.length <= WHOLE_MEMORY
            ? c.body
            : e.text
          : c.doc.titled
            ? withoutHeading(e.text, c.doc.title)
            : e.text;
      out.push({
        key,
        candidate: c,
        text: shown,
        score,
        source: { kind, id, title: c.heading, score, ...(c.time ? { time: c.time.slice(0, 10) } : {}) },
      });
    }
    return out;
  }
}

interface Ranked {
  key: string;
  candidate: Candidate;
  /** What is quoted: a memory's text (or its best passage when long), another source's best passage. */
  text: string;
  score: number;
  source: MemorySource;
}

/** A memory as a document to rank: its name, description, text, project, files and links. */
function memoryDocument(hit: MemoryRecord): Document {
  const text = [
    hit.name,
    hit.description ?? '',
    hit.text,
    hit.project ? `Project: ${hit.project}` : '',
    ...hit.files,
    ...hit.links,
  ]
    .filter(Boolean)
    .join('\n\n');
  // Prose: Trove's offline embedding is of code (docstrings to functions); on an agent's memories it
  // moved the answering turns down (docs/MODELS.md, "Agent memory recall").
  return { text, memoryId: hit.id, retrieved: true, title: hit.name, generic: 'TEXT', specific: 'md', prose: true };
}

function sourceKey(doc: Document): [MemorySource['kind'], string] {
  if (doc.memoryId) return ['memory', doc.memoryId];
  if (doc.conversationId) return ['conversation', doc.conversationId];
  if (doc.assetId) return ['snippet', doc.assetId];
  return ['file', doc.path ?? ''];
}

const normalised = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** A snippet's passage without its name as the first line (the heading names it). */
function withoutHeading(text: string, title: string | undefined): string {
  return title && text.startsWith(title) ? text.slice(title.length).replace(/^\s*\n/, '') || text : text;
}

/** Prose stays prose (quoted); anything else is shown verbatim in a fence, with its language. */
const PROSE = new Set(['md', 'markdown', 'txt', 'text', 'rst', 'adoc']);

/** One quoted passage: its source's name once, as a heading, then where it is, its time and score, then the text. */
function quote(n: number, r: Ranked): string {
  const { doc } = r.candidate;
  const name = (doc.title ?? doc.path ?? 'a saved snippet').replace(/\s+/g, ' ').trim();
  const where =
    r.source.kind === 'memory'
      ? `memory, trove://memories/${r.source.id}`
      : r.source.kind === 'snippet'
        ? `snippet, trove://snippets/${r.source.id}`
        : r.source.kind === 'conversation'
          ? `conversation ${r.source.id}`
          : 'open file';
  const about = r.source.time ? `, ${r.source.kind === 'conversation' ? 'said' : 'about'} ${r.source.time}` : '';
  const header = `### ${n}. ${name}\n_${where}${about}, score ${r.score}_`;
  const prose = doc.specific
    ? PROSE.has(doc.specific.toLowerCase()) || doc.generic === 'TEXT'
    : !/[{};]\s*$|^\s{2,}\S/m.test(r.text);
  if (prose)
    return `${header}\n\n${r.text
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n')}`;
  const fence = r.text.includes('```') ? '~~~~' : '```';
  return `${header}\n\n${fence}${doc.specific && doc.specific !== 'UNKNOWN' ? doc.specific : ''}\n${r.text}\n${fence}`;
}
