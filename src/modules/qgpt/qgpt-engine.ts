import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '../../common/database/database.service';
import { textOf } from '../assets/asset-text';
import { AssetAggregate } from '../assets/wire/asset.wire';
import { ChatMessage, collect } from '../intelligence/providers/model-provider';
import { outlineCode } from '../intelligence/text/code-outline';
import { bestPassages, contentTerms, passagesOf, rankPassages, standaloneQuery } from '../intelligence/text/extractive-answerer';
import { ExtractiveTextEngine } from '../intelligence/text/extractive-text-engine';
import { ModelRegistry, ResolvedModel } from '../models/model-registry';
import { AppConfig } from '../../common/config/app-config';
import { SearchEngine } from '../search/search-engine.service';
import { ApplicationRegistry } from '../system/application.registry';
import { ApplicationWire, applicationWire } from '../system/wire/application.wire';
import { QGPTRelevanceInputDto, RelevantQGPTSeedDto } from './dto/qgpt.dto';
import { LocalFiles } from './local-files';
import { Snippet, SnippetCache } from './snippet-cache';
import { QGPTQuestionAnswerWire, RelevantQGPTSeedWire } from './wire/qgpt.wire';

/** Snippets relevance returns, answers the offline engine gives, candidate assets from the index. */
const RELEVANT = 5;
const ANSWERS = 3;
const CANDIDATES = 20;
/** The name and first format's text of candidate assets, driven by the id list (SQLite: CROSS JOIN keeps that order of loops). */
const CANDIDATE_COLUMNS = `a.id AS id, a.name AS name, f.raw AS raw`;
const FIRST_FORMAT = `f.asset_id = a.id AND f.position = (SELECT MIN(g.position) FROM formats g WHERE g.asset_id = a.id)`;
const CANDIDATE_TEXT_SQLITE = `SELECT ${CANDIDATE_COLUMNS} FROM json_each(?1) AS j CROSS JOIN assets a ON a.id = j.value JOIN formats f ON ${FIRST_FORMAT} WHERE a.deleted_at IS NULL`;
const CANDIDATE_TEXT_PG = `SELECT ${CANDIDATE_COLUMNS} FROM assets a JOIN formats f ON ${FIRST_FORMAT} WHERE a.deleted_at IS NULL AND a.id = ANY($1::varchar[])`;
/** Lexical top passages re-ranked by embeddings. */
const RERANK = 30;
/** Context sent to a language model. */
const CONTEXT_CHARS = 12_000;

export const SYSTEM_PROMPT =
  "You are Trove's assistant for a developer's saved snippets. Answer the question using the context snippets when " +
  'they are relevant, say so when they do not contain the answer, and put code in fenced blocks. Be concise.';

export interface Document {
  text: string;
  assetId?: string;
  path?: string;
}

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
    private readonly files: LocalFiles,
    private readonly cache: SnippetCache,
    private readonly extractive: ExtractiveTextEngine,
    private readonly applications: ApplicationRegistry,
    private readonly registry: ModelRegistry,
    private readonly config: AppConfig,
  ) {}

  /** The documents of exactly one query space. */
  async space(input: QGPTRelevanceInputDto): Promise<{ docs: Document[]; priors: number[] }> {
    const given = [
      input.paths !== undefined && 'paths',
      input.seeds !== undefined && 'seeds',
      input.assets !== undefined && 'assets',
      input.options?.database === true && 'options.database',
    ].filter(Boolean);
    if (given.length !== 1) {
      throw new BadRequestException(
        `give exactly one query space: paths (absolute local paths), seeds, assets or options.database: true (got ${given.length ? given.join(', ') : 'none'})`,
      );
    }
    if (input.paths) {
      if (input.paths.length === 0) throw new BadRequestException('paths must not be empty');
      return { docs: (await this.files.read(input.paths)).map((d) => ({ text: d.text, path: d.path })), priors: [] };
    }
    if (input.seeds) {
      const docs = input.seeds.iterable.map((seed, i) => {
        const text = textOf(seed.asset?.format?.fragment?.string);
        if (text === undefined) throw new BadRequestException(`seeds.iterable[${i}] has no asset.format.fragment.string.raw (only fragment strings are used)`);
        if (text.includes('\u0000')) throw new BadRequestException(`seeds.iterable[${i}] must not contain NUL characters`);
        return { text };
      });
      return { docs, priors: [] };
    }
    if (input.assets) {
      const ids = [...new Set(input.assets.iterable.map((a) => a.id.toLowerCase()))];
      const aggregates = await this.db.read((em) => this.search.aggregates(em, ids));
      const missing = ids.filter((id) => !aggregates.has(id));
      if (missing.length) throw new NotFoundException(`asset ${missing[0]} not found${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}`);
      return { docs: ids.map((id) => assetDocument(aggregates.get(id)!)), priors: [] };
    }
    return this.database(input.query);
  }

  /** Candidate assets for a question from the search index (key terms, bm25), best first. */
  async database(query: string): Promise<{ docs: Document[]; priors: number[] }> {
    if (contentTerms(query).length === 0) return { docs: [], priors: [] };
    const docs = await this.db.read(async (em) => {
      const ids = await this.search.similarIds(em, [{ text: query, weight: 1 }], CANDIDATES);
      if (ids.length === 0) return [];
      // Only what the passages need: the name and the text of the first format.
      const rows = await this.db.query<{ id: string; name: string | null; raw: string }>(
        em,
        this.config.dialect === 'postgres' ? CANDIDATE_TEXT_PG : CANDIDATE_TEXT_SQLITE,
        [this.config.dialect === 'postgres' ? ids : JSON.stringify(ids)],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [{ text: [row.name ?? '', row.raw].filter(Boolean).join('\n\n'), assetId: id }] : [];
      });
    });
    return { docs, priors: docs.map((_, i) => 1 - i / Math.max(1, docs.length)) };
  }

  /**
   * The best passages of the documents, cached under fresh ids. With an embedding model
   * configured (TROVE_EMBEDDING_MODEL), the lexical top passages are embedded with the query
   * and re-ranked by half lexical score, half cosine similarity.
   */
  async rank(query: string, docs: Document[], priors: number[], n = RELEVANT): Promise<Snippet[]> {
    const passages = docs.flatMap((d, i) => passagesOf(d.text, i));
    let ranked = rankPassages(query, passages, priors);
    const embedder = this.config.embeddingModel ? await this.registry.resolve(this.config.embeddingModel) : null;
    if (embedder && ranked.length) {
      const top = ranked.slice(0, RERANK);
      const [q, ...vectors] = await embedder.provider.embed(embedder.unique, [query, ...top.map((p) => p.text)]);
      ranked = top
        .map((p, i) => ({ ...p, score: Math.round((0.5 * p.score + 0.5 * Math.max(0, cosine(q, vectors[i]))) * 1e4) / 1e4 }))
        .map((p, i) => ({ p, i }))
        .sort((a, b) => b.p.score - a.p.score || a.i - b.i)
        .map(({ p }) => p);
    }
    return bestPassages(ranked, n).map((p) => {
      const snippet: Snippet = { id: randomUUID(), text: p.text, score: p.score, assetId: docs[p.doc].assetId, path: docs[p.doc].path };
      this.cache.put(snippet);
      return snippet;
    });
  }

  /** /qgpt/question's relevant seeds: ids from relevance, or seeds with fragment text. */
  snippetsOf(relevant: RelevantQGPTSeedDto[]): Snippet[] {
    return relevant.map((r, i) => {
      if (r.id) {
        const cached = this.cache.get(r.id);
        if (cached) return cached;
        if (!r.seed) throw new BadRequestException(`relevant.iterable[${i}].id ${r.id} is not a snippet id returned by /qgpt/relevance (or it has expired); send the snippet as a seed`);
      }
      const text = textOf(r.seed?.asset?.format?.fragment?.string);
      if (text === undefined) throw new BadRequestException(`relevant.iterable[${i}] needs an id returned by /qgpt/relevance or a seed with asset.format.fragment.string.raw`);
      if (text.includes('\u0000')) throw new BadRequestException(`relevant.iterable[${i}] must not contain NUL characters`);
      return { id: r.id ?? randomUUID(), text, score: r.score ?? 1, assetId: r.asset?.id, path: r.path };
    });
  }

  /** Offline answers: the passages of the snippets that best answer the query, each with its score. */
  offlineAnswers(query: string, snippets: Snippet[]): QGPTQuestionAnswerWire[] {
    const passages = snippets.flatMap((s, i) => passagesOf(s.text, i));
    const best = bestPassages(rankPassages(query, passages, snippets.map((s) => Math.min(1, Math.max(0, s.score)))), ANSWERS);
    if (best.length === 0) return [{ score: 0, text: 'None of the relevant snippets matches this question (the offline engine only quotes passages; it does not generate text).' }];
    return best.map((p) => ({ score: p.score, text: p.text }));
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
  async *answerStream(model: ResolvedModel, query: string, snippets: Snippet[], history: ChatMessage[], signal?: AbortSignal): AsyncIterable<string> {
    if (model.offline) {
      const answers = this.offlineAnswers(query, snippets);
      const text = answers.map((a) => a.text).join('\n\n');
      for (const piece of text.split(/(?<=\n)/)) {
        if (signal?.aborted) return;
        yield piece;
      }
      return;
    }
    yield* model.provider.chat(model.unique, this.prompt(model, query, snippets, history), {
      signal,
      temperature: model.generation.temperature,
      maxTokens: model.generation.maxTokens,
    });
  }

  async answers(model: ResolvedModel, query: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    if (model.offline) return this.offlineAnswers(query, snippets);
    return [{ score: 1, text: (await collect(this.answerStream(model, query, snippets, []))).trim() }];
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
          { role: 'system', content: 'Rewrite the follow-up question so it can be understood without the conversation. Answer with the rewritten question only.' },
          { role: 'user', content: `Conversation:\n${transcript}\n\nFollow-up: ${query}` },
        ],
        { maxTokens: 200, temperature: 0 },
      ),
    );
    return out.trim().split('\n')[0].trim() || query;
  }

  /** Follow-up questions suggested from the snippets and the answer. */
  async hints(model: ResolvedModel, query: string, answer: string, snippets: Snippet[]): Promise<QGPTQuestionAnswerWire[]> {
    if (!model.offline) {
      const context = snippets.map((s) => s.text).join('\n\n').slice(0, CONTEXT_CHARS);
      const out = await collect(
        model.provider.chat(
          model.unique,
          [
            { role: 'system', content: 'Suggest three short follow-up questions a developer could ask next. One per line, no numbering, nothing else.' },
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
      add(def.name, def.kind === 'class' || def.kind === 'interface' || def.kind === 'type' ? `What is \`${def.name}\` used for?` : `What does \`${def.name}\` do?`);
    }
    for (const phrase of await this.extractive.keyPhrases(all, 6)) add(phrase, `How does ${phrase} work?`);
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
  const text = [aggregate.asset.name ?? '', ...aggregate.formats.slice(0, 1).map((f) => f.raw)].filter(Boolean).join('\n\n');
  return { text, assetId: aggregate.asset.id };
}
