import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { Database } from '../../common/database/database.service';
import { InvalidInput, NotFound } from '../../common/errors/domain-errors';
import { textOf } from '../assets/asset-text';
import { AssetReader } from '../assets/asset.reader';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { ChatMessage, collect } from '../intelligence/providers/model-provider';
import { outlineCode } from '../intelligence/text/code-outline';
import { codeEmbedding } from '../intelligence/text/code-embedding';
import { namedText, rankDocumentPassages } from '../intelligence/text/passage-ranking';
import { fuseRanks } from '../intelligence/text/rank-fusion';
import {
  ScoredPassage,
  bestPassages,
  contentTerms,
  contentWords,
  passagesOf,
  rankPassages,
  standaloneQuery,
} from '../intelligence/text/extractive-answerer';
import { ExtractiveTextEngine } from '../intelligence/text/extractive-text-engine';
import { CANNOT_GENERATE, commitSubject, offlineRequest } from '../intelligence/text/offline-requests';
import { ConversationReader } from '../conversations/conversation.reader';
import { ModelRegistry, ResolvedModel } from '../models/model-registry';
import { AppConfig } from '../../common/config/app-config';
import { SearchEngine } from '../search/search-engine.service';
import { ModelVectorIndex } from '../search/model-vector-index';
import { ApplicationRegistry } from '../system/application.registry';
import { ApplicationWire, applicationWire } from '../system/wire/application.wire';
import { QGPTRelevanceInputDto, RelevantQGPTSeedDto } from './dto/qgpt.dto';
import { LocalFiles } from './local-files';
import { Document, Snippet, SnippetCache } from './snippet-cache';
import { QGPTQuestionAnswerWire, RelevantQGPTSeedWire } from './wire/qgpt.wire';

/** Snippets relevance returns, answers the offline engine gives, candidate assets from the index. */
const RELEVANT = 5;
const ANSWERS = 3;
const CANDIDATES = 20;
/**
 * Candidates before the offline code embedding re-orders them and the best CANDIDATES are kept:
 * the key-term and fuzzy rankings' best, fused with the embedding's nearest assets (dense stage).
 */
const WIDE_CANDIDATES = 50;
/** Content words of a question that search's fuzzy ranking looks up. */
const FUZZY_WORDS = 4;
/** Lexical top passages re-ranked by embeddings (and at most as many of documents no word of the question matched). */
const RERANK = 30;
/** Passages of each document no word of the question matched that are re-ranked by embeddings. */
const UNRANKED_PASSAGES = 3;
/** Context sent to a language model. */
const CONTEXT_CHARS = 12_000;

const SYSTEM_PROMPT =
  "You are Trove's assistant for a developer's saved snippets. Answer the question using the context snippets when " +
  'they are relevant, say so when they do not contain the answer, and put code in fenced blocks. Be concise.';

/**
 * Question answering over the store: the query space (local files, seeds, assets, the
 * whole database through the search index) cut into passages and ranked; answers from the
 * offline extractive engine or from the selected language model.
 */
@Injectable()
export class QgptEngine {
  private selfApplication: ApplicationWire | null = null;

  constructor(
    private readonly db: Database,
    private readonly search: SearchEngine,
    private readonly assets: AssetReader,
    private readonly files: LocalFiles,
    private readonly cache: SnippetCache,
    private readonly extractive: ExtractiveTextEngine,
    private readonly applications: ApplicationRegistry,
    private readonly registry: ModelRegistry,
    private readonly config: AppConfig,
    private readonly conversations: ConversationReader,
    private readonly vectors: ModelVectorIndex,
  ) {}

  /**
   * The documents of the query spaces the input names, together: local paths (given, or the
   * files of anchors), seeds, assets and the whole store (`options.database`). the interface asks for exactly one, but the
   * official CLI sends none when nothing is attached to a question and several when files and
   * materials both are: no space means the whole store, several mean their union.
   * `searchQuery` is what the store is searched with (a follow-up made standalone by the caller).
   */
  async space(
    input: QGPTRelevanceInputDto,
    searchQuery = input.query,
  ): Promise<{ docs: Document[]; priors: number[] }> {
    const explicit =
      input.paths !== undefined ||
      input.anchors !== undefined ||
      input.seeds !== undefined ||
      input.assets !== undefined;
    const parts: Array<{ docs: Document[]; priors: number[] }> = [];
    const paths = [...(input.paths ?? [])];
    if (input.paths?.length === 0) throw new InvalidInput('paths must not be empty');
    if (input.anchors?.iterable.length) {
      const ids = input.anchors.iterable.map((a) => a.id.toLowerCase());
      paths.push(...(await this.db.read((em) => this.conversations.anchorPaths(em, ids))));
    }
    if (paths.length) {
      parts.push({
        docs: (await this.files.read([...new Set(paths)])).map((d) => ({
          text: d.text,
          path: d.path,
          specific: extname(d.path).slice(1).toLowerCase() || undefined,
        })),
        priors: [],
      });
    }
    if (input.seeds) {
      const docs = input.seeds.iterable.map((seed, i) => {
        const text = textOf(seed.asset?.format?.fragment?.string);
        if (text === undefined)
          throw new InvalidInput(
            `seeds.iterable[${i}] has no asset.format.fragment.string.raw (only fragment strings are used)`,
          );
        if (text.includes('\u0000')) throw new InvalidInput(`seeds.iterable[${i}] must not contain NUL characters`);
        const classification = seed.asset?.format?.classification;
        // A file the seed stands for (the CLI's commit sends each file's diff with its anchor).
        const anchors = (seed.asset?.metadata as { anchors?: Array<{ fullpath?: unknown }> } | undefined)?.anchors;
        const path =
          Array.isArray(anchors) && typeof anchors[0]?.fullpath === 'string' ? anchors[0].fullpath : undefined;
        return {
          text,
          path,
          title: seed.asset?.metadata?.name ?? undefined,
          generic: classification?.generic,
          specific: classification?.specific,
        };
      });
      parts.push({ docs, priors: [] });
    }
    if (input.assets) {
      const ids = [...new Set(input.assets.iterable.map((a) => a.id.toLowerCase()))];
      const aggregates = await this.db.read((em) => this.search.aggregates(em, ids));
      const missing = ids.filter((id) => !aggregates.has(id));
      if (missing.length)
        throw new NotFound(
          `asset ${missing[0]} not found${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`,
        );
      parts.push({ docs: ids.map((id) => assetDocument(aggregates.get(id)!)), priors: [] });
    }
    if (input.options?.database === true || !explicit) parts.push(await this.database(searchQuery));
    if (parts.length === 1) return parts[0];
    // Priors only rank the store's candidates among themselves; given documents count fully.
    return {
      docs: parts.flatMap((p) => p.docs),
      priors: parts.flatMap((p) => (p.priors.length ? p.priors : p.docs.map(() => 1))),
    };
  }

  /** Candidate assets for a question from the search index (key terms, bm25), best first. */
  async database(query: string): Promise<{ docs: Document[]; priors: number[] }> {
    if (contentTerms(query).length === 0) return { docs: [], priors: [] };
    const docs = await this.db.read(async (em) => {
      // Two rankings fused: the question's key terms (bm25), and search's fuzzy ranking (words,
      // identifier parts, substrings, typo corrections), so a misspelt identifier finds its snippet.
      const embedding = codeEmbedding();
      const asked = embedding?.question(query);
      const byTerms = await this.search.similarIds(
        em,
        [{ text: query, weight: 1 }],
        asked ? WIDE_CANDIDATES : CANDIDATES,
      );
      // Search's ranking on the question's content words only: "how", "do", "the" would cost
      // every index list a pass (and a trigram scan) and find nothing a key term does not.
      const lookup = contentWords(query).slice(0, FUZZY_WORDS).join(' ');
      // Substrings (a trigram scan) only for a single word, an identifier looked up alone; no
      // any-word fallback (the key-term ranking above is one).
      const fuzzy = await this.search.rank(em, lookup, { pseudo: false }, CANDIDATES, {
        substrings: !lookup.includes(' '),
        partial: false,
      });
      let ids = fuseRanks([byTerms, fuzzy.ranked.map(([id]) => id)], asked ? WIDE_CANDIDATES : CANDIDATES);
      // For a question of several words, the assets nearest to it in the offline embedding, over
      // the whole store: code that shares no word with the question, which the lexical rankings
      // cannot find. Not for one word or name looked up (often misspelt): the vectors of other
      // code would crowd out the lexical matches of what it names.
      if (asked && lookup.includes(' '))
        ids = fuseRanks([ids, await this.search.closestIds(em, asked, WIDE_CANDIDATES)], WIDE_CANDIDATES);
      // With an embedding model configured: the assets nearest to the question in it, over the
      // whole store (ModelVectorIndex), fused in the same way.
      const near = new Set<string>();
      if (this.vectors.model) {
        const nearest = (await this.vectors.nearest('asset', query, WIDE_CANDIDATES)).map((hit) => hit.id);
        for (const id of nearest) near.add(id);
        if (nearest.length) ids = fuseRanks([ids, nearest], asked ? WIDE_CANDIDATES : CANDIDATES);
      }
      const corrections = [...new Set([...fuzzy.corrections.values()].flat())];
      if (ids.length === 0) return [];
      // Only what the passages need: the name and the text of the first format.
      const rows = await this.assets.firstFormatTexts(em, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      if (asked && embedding) {
        // The wider lexical pool re-ordered with the offline embedding's ranking (fused, so
        // neither the words nor the vectors alone decide), then cut to the usual candidates.
        const close = await this.search.closestOrder(
          em,
          asked,
          rows.map((row) => ({ id: row.id, name: row.name, text: row.raw })),
        );
        ids = fuseRanks([ids, close], CANDIDATES);
      }
      return ids.flatMap((id) => {
        const row = byId.get(id);
        // Its content, under its name only when the user gave it (a generated one repeats the first line).
        const named = row && row.name && row.name !== row.generated_name ? row.name : null;
        return row
          ? [
              {
                text: namedText(named, row.raw),
                titled: named !== null,
                assetId: id,
                retrieved: true,
                title: row.name ?? undefined,
                generic: row.generic,
                specific: row.specific,
                ...(corrections.length ? { corrections } : {}),
                ...(near.has(id) ? { near: true } : {}),
              },
            ]
          : [];
      });
    });
    return { docs, priors: docs.map((_, i) => 1 - i / Math.max(1, docs.length)) };
  }

  /**
   * Every passage of the documents, best first: BM25 over the passages plus query coverage
   * and the documents' priors, half and half with the passage's similarity to the question in
   * Trove's shipped code embedding (code-embedding.ts). With an embedding model configured
   * (TROVE_EMBEDDING_MODEL) the provider's vectors take the shipped embedding's place: the
   * lexical top passages are embedded with the query and re-ranked by half lexical score, half
   * cosine similarity. `lenient`: the embedding model failing leaves the lexical ranking (rather
   * than failing with the provider's error).
   */
  async scorePassages(
    query: string,
    docs: Document[],
    priors: number[],
    options: { lenient?: boolean } = {},
  ): Promise<ScoredPassage[]> {
    // Offline, the shipped code embedding weighs in: how close each passage is to the question.
    const embedding = this.config.embeddingModel ? null : codeEmbedding();
    const asked = embedding?.question(query);
    const ranked = rankDocumentPassages(query, docs, priors, asked && embedding ? { embedding, asked } : undefined);
    const embedder = this.config.embeddingModel ? await this.registry.resolve(this.config.embeddingModel) : null;
    if (!embedder || docs.length === 0) return ranked;
    // The documents the model vector index found (ModelVectorIndex) none of whose passages shares
    // a word with the question are re-ranked too, from a lexical score of 0: their closeness to
    // the question is all they have.
    const represented = new Set(ranked.map((p) => p.doc));
    const unranked = docs
      .flatMap((d, i) => (d.near && !represented.has(i) ? passagesOf(d.text, i).slice(0, UNRANKED_PASSAGES) : []))
      .slice(0, RERANK)
      .map((p) => ({ ...p, score: 0 }));
    const top = [...ranked.slice(0, RERANK), ...unranked];
    if (top.length === 0) return ranked;
    let q: number[];
    let vectors: number[][];
    try {
      [q, ...vectors] = await embedder.provider.embed(embedder.unique, [query, ...top.map((p) => p.text)]);
    } catch (error) {
      // The provider's error is the request's (relevance answers its status), unless the caller
      // would rather have the lexical ranking (ask_pieces_ltm: an agent's recall goes on without the model).
      if (options.lenient) return ranked;
      throw error;
    }
    return top
      .map((p, i) => ({
        ...p,
        score: Math.round((0.5 * p.score + 0.5 * Math.max(0, cosine(q, vectors[i]))) * 1e4) / 1e4,
      }))
      .filter((p) => p.score > 0)
      .map((p, i) => ({ p, i }))
      .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
      .map(({ p }) => p);
  }

  /** The best passages of the documents (at most 2 per document), cached under fresh ids for /qgpt/question. */
  async rank(query: string, docs: Document[], priors: number[], n = RELEVANT): Promise<Snippet[]> {
    // A commit message is about the whole change: every file's diff, not the passages most like the prompt.
    if (offlineRequest(query).kind === 'commit-message') {
      return docs.map((d) => this.cached({ id: randomUUID(), text: d.text, score: 1, ...sourceOf(d) }));
    }
    return bestPassages(await this.scorePassages(query, docs, priors), n).map((p) => {
      const doc = docs[p.doc];
      return this.cached({ id: randomUUID(), text: p.text, score: p.score, ...sourceOf(doc) });
    });
  }

  private cached(snippet: Snippet): Snippet {
    this.cache.put(snippet);
    return snippet;
  }

  /** /qgpt/question's relevant seeds: ids from relevance, or seeds with fragment text. */
  snippetsOf(relevant: RelevantQGPTSeedDto[]): Snippet[] {
    return relevant.map((r, i) => {
      if (r.id) {
        const cached = this.cache.get(r.id);
        if (cached) return cached;
        if (!r.seed)
          throw new InvalidInput(
            `relevant.iterable[${i}].id ${r.id} is not a snippet id returned by /qgpt/relevance (or it has expired); send the snippet as a seed`,
          );
      }
      const text = textOf(r.seed?.asset?.format?.fragment?.string);
      if (text === undefined)
        throw new InvalidInput(
          `relevant.iterable[${i}] needs an id returned by /qgpt/relevance or a seed with asset.format.fragment.string.raw`,
        );
      if (text.includes('\u0000')) throw new InvalidInput(`relevant.iterable[${i}] must not contain NUL characters`);
      return { id: r.id ?? randomUUID(), text, score: r.score ?? 1, assetId: r.asset?.id, path: r.path };
    });
  }

  /**
   * Offline answers: the passages of the snippets that best answer the query, each with its
   * score. A request for new text is answered with the one sentence saying a model is needed
   * (then the closest snippets found in the store, never the client's own input quoted back);
   * a commit message with a subject built from the files and symbols the diff touches.
   */
  offlineAnswers(query: string, snippets: Snippet[]): QGPTQuestionAnswerWire[] {
    const request = offlineRequest(query);
    if (request.kind === 'commit-message') {
      const subject = commitSubject(
        query,
        snippets.map((s) => ({ path: s.path, text: s.text })),
      );
      return [subject ? { score: 1, text: subject } : { score: 0, text: CANNOT_GENERATE }];
    }
    if (request.kind === 'generate') {
      const found = this.quote(
        query,
        snippets.filter((s) => s.retrieved),
      );
      return [{ score: 0, text: CANNOT_GENERATE }, ...found];
    }
    const quoted = this.quote(query, snippets);
    if (quoted.length === 0)
      return [
        {
          score: 0,
          text: 'None of the relevant snippets matches this question (the offline engine only quotes passages; it does not generate text).',
        },
      ];
    return quoted;
  }

  /** The best passages, each quoted as written (code fenced with its language) under its source and score. */
  private quote(query: string, snippets: Snippet[]): QGPTQuestionAnswerWire[] {
    const passages = snippets.flatMap((s, i) => passagesOf(s.text, i));
    const best = bestPassages(
      rankPassages(
        query,
        passages,
        snippets.map((s) => Math.min(1, Math.max(0, s.score))),
      ),
      ANSWERS,
    );
    return best.map((p) => ({ score: p.score, text: quoted(p.text, snippets[p.doc], p.score) }));
  }

  /** Says which model answered when it is not the one the request named (a client model standing in). */
  standInNote(model: ResolvedModel): string | null {
    return model.standsInFor
      ? `Answered by ${model.name}: ${model.standsInFor} is not served by this Trove server (GET /models says what runs each model).`
      : null;
  }

  /** The messages a language model gets: system prompt, context snippets, history, the question. */
  prompt(model: ResolvedModel, query: string, snippets: Snippet[], history: ChatMessage[]): ChatMessage[] {
    let context = '';
    snippets.forEach((s, i) => {
      if (context.length >= CONTEXT_CHARS) return;
      const origin = s.path ? ` (${s.path})` : '';
      context += `\n\n[${i + 1}]${origin}\n${s.text.slice(0, CONTEXT_CHARS - context.length)}`;
    });
    return [
      { role: 'system', content: model.systemPrompt ?? SYSTEM_PROMPT },
      ...(context ? [{ role: 'system' as const, content: `Context snippets:${context}` }] : []),
      ...history,
      { role: 'user', content: query },
    ];
  }

  /** The answer as a stream of text chunks: the model's, or the offline passages. */
  async *answerStream(
    model: ResolvedModel,
    query: string,
    snippets: Snippet[],
    history: ChatMessage[],
    signal?: AbortSignal,
  ): AsyncIterable<string> {
    if (model.offline) {
      const answers = this.offlineAnswers(query, snippets);
      const text = answers.map((a) => a.text).join('\n\n');
      for (const piece of text.split(/(?<=\n)/)) {
        if (signal?.aborted) return;
        yield piece;
      }
    } else {
      yield* model.provider.chat(model.unique, this.prompt(model, query, snippets, history), {
        signal,
        temperature: model.generation.temperature,
        maxTokens: model.generation.maxTokens,
      });
    }
    const note = this.standInNote(model);
    if (note && !signal?.aborted) yield `\n\n*${note}*`;
  }

  /** The answers of /qgpt/question and relevance's `answer`; a stand-in's note comes last, with score 0. */
  async answers(model: ResolvedModel, query: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    const answers = model.offline
      ? this.offlineAnswers(query, snippets)
      : [
          {
            score: 1,
            text: (await collect(this.answerStream({ ...model, standsInFor: undefined }, query, snippets, []))).trim(),
          },
        ];
    const note = this.standInNote(model);
    return note ? [...answers, { score: 0, text: note }] : answers;
  }

  /** A follow-up plus history as a standalone query. */
  async reprompt(model: ResolvedModel, query: string, history: Array<{ role: string; text: string }>): Promise<string> {
    if (model.offline || history.length === 0) return standaloneQuery(query, history);
    const transcript = history
      .slice(-12)
      .map((m) => `${m.role}: ${m.text.slice(0, 2000)}`)
      .join('\n');
    const out = await collect(
      model.provider.chat(
        model.unique,
        [
          {
            role: 'system',
            content:
              'Rewrite the follow-up question so it can be understood without the conversation. Answer with the rewritten question only.',
          },
          { role: 'user', content: `Conversation:\n${transcript}\n\nFollow-up: ${query}` },
        ],
        { maxTokens: 200, temperature: 0 },
      ),
    );
    return out.trim().split('\n')[0].trim() || query;
  }

  /** Follow-up questions suggested from the snippets and the answer. */
  async hints(
    model: ResolvedModel,
    query: string,
    answer: string,
    snippets: Snippet[],
  ): Promise<QGPTQuestionAnswerWire[]> {
    if (!model.offline) {
      const context = snippets
        .map((s) => s.text)
        .join('\n\n')
        .slice(0, CONTEXT_CHARS);
      const out = await collect(
        model.provider.chat(
          model.unique,
          [
            {
              role: 'system',
              content:
                'Suggest three short follow-up questions a developer could ask next. One per line, no numbering, nothing else.',
            },
            { role: 'user', content: `Question: ${query}\n\nAnswer: ${answer}\n\nContext:\n${context}` },
          ],
          { maxTokens: 200, temperature: 0.3 },
        ),
      );
      return out
        .split('\n')
        .map((l) => l.replace(/^[\s\-*\d.)]+/, '').trim())
        .filter((l) => l.length > 3)
        .slice(0, 3)
        .map((text, i) => ({ score: Math.round((1 - i * 0.1) * 100) / 100, text }));
    }
    return this.offlineHints(query, answer, snippets);
  }

  private async offlineHints(query: string, answer: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    const asked = new Set(contentTerms(query));
    const out: string[] = [];
    const seen = new Set<string>();
    const add = (subject: string, question: string) => {
      const terms = contentTerms(subject);
      const key = terms.join(' ');
      if (!key || seen.has(key) || terms.every((t) => asked.has(t))) return;
      seen.add(key);
      out.push(question);
    };
    const all = [answer, ...snippets.map((s) => s.text)].filter(Boolean).join('\n\n');
    for (const def of outlineCode(all).definitions.slice(0, 6)) {
      add(
        def.name,
        def.kind === 'class' || def.kind === 'interface' || def.kind === 'type'
          ? `What is \`${def.name}\` used for?`
          : `What does \`${def.name}\` do?`,
      );
    }
    for (const phrase of await this.extractive.keyPhrases(all, 6)) add(phrase, howDoesItWork(phrase));
    for (const def of outlineCode(all).definitions.slice(0, 3)) add(`use ${def.name}`, `How do I use \`${def.name}\`?`);
    return out.slice(0, 5).map((text, i) => ({ score: Math.round((1 - i * 0.15) * 100) / 100, text }));
  }

  /** The wire form of a snippet: a seed with its text, credited to Trove itself. */
  async seedWire(snippet: Snippet): Promise<RelevantQGPTSeedWire> {
    const application = await this.self();
    return {
      id: snippet.id,
      seed: { type: 'SEEDED_ASSET', asset: { application, format: { fragment: { string: { raw: snippet.text } } } } },
      ...(snippet.path ? { path: snippet.path } : {}),
      ...(snippet.assetId ? { asset: { id: snippet.assetId } } : {}),
      score: snippet.score,
    };
  }

  private async self(): Promise<ApplicationWire> {
    if (!this.selfApplication) {
      const entity = await this.db.transaction((em) => this.applications.resolve(em));
      this.selfApplication = applicationWire(entity);
    }
    return this.selfApplication;
  }
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

function assetDocument(aggregate: AssetAggregate): Document {
  const first = aggregate.formats[0];
  const text = namedText(aggregate.asset.name, first?.raw);
  return {
    text,
    assetId: aggregate.asset.id,
    title: aggregate.asset.name ?? undefined,
    generic: first?.generic,
    specific: first?.specific,
  };
}

function sourceOf(doc: Document): Omit<Snippet, 'id' | 'text' | 'score'> {
  return {
    assetId: doc.assetId,
    path: doc.path,
    retrieved: doc.retrieved,
    title: doc.title,
    generic: doc.generic,
    specific: doc.specific,
    memoryId: doc.memoryId,
    conversationId: doc.conversationId,
  };
}

/** Prose stays prose (quoted); anything else is shown verbatim in a fence, with its language. */
const PROSE = new Set(['md', 'markdown', 'txt', 'text', 'rst', 'adoc']);

function quoted(text: string, source: Snippet, score: number): string {
  const origin = source.title
    ? `**${source.title.replace(/\s+/g, ' ').trim()}**`
    : source.path
      ? `\`${source.path}\``
      : source.assetId
        ? 'a saved snippet'
        : 'your snippet';
  const header = `From ${origin} (score ${score}):`;
  const body = source.title ? stripTitle(text, source.title) : text;
  const prose = source.specific
    ? PROSE.has(source.specific.toLowerCase()) || source.generic === 'TEXT'
    : !/[{};]\s*$|^\s{2,}\S/m.test(body);
  if (prose)
    return `${header}\n\n${body
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n')}`;
  const fence = body.includes('```') ? '~~~~' : '```';
  return `${header}\n\n${fence}${source.specific && source.specific !== 'UNKNOWN' ? source.specific : ''}\n${body}\n${fence}`;
}

/** The asset's name heads its document for retrieval; a quote does not repeat it. */
function stripTitle(text: string, title: string): string {
  return text.startsWith(title) ? text.slice(title.length).replace(/^\s*\n/, '') || text : text;
}

/**
 * "How does the connection pool work?", "How do retries work?", "How does Redis work?": the
 * question agrees with the phrase's head noun (its last word), and a common noun gets its article.
 */
export function howDoesItWork(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  const head = words[words.length - 1];
  const plural = /[^su]s$/i.test(head) && head.length > 3;
  const proper = words.every((w) => /^[A-Z0-9]/.test(w));
  if (plural) return `How do ${phrase} work?`;
  return `How does ${proper ? '' : 'the '}${phrase} work?`;
}
