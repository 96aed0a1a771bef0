import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Database } from '../../common/database/database.service';
import { bestPassages } from '../intelligence/text/extractive-answerer';
import { offlineRequest } from '../intelligence/text/offline-requests';
import { Retrieval } from '../search/retrieval.service';
import { ApplicationRegistry } from '../system/application.registry';
import { ApplicationWire, applicationWire } from '../system/wire/application.wire';
import { QGPTRelevanceInputDto } from './dto/qgpt.dto';
import { QuerySpace } from './query-space';
import { Document, Snippet, SnippetCache } from './snippet-cache';
import { RelevantQGPTSeedWire, relevantSeedWire } from './wire/qgpt.wire';

/** Snippets relevance returns. */
const RELEVANT = 5;

/**
 * The passages a question is answered from: a query space's (or the whole store's) documents
 * ranked by search's Retrieval, the best kept under fresh ids (SnippetCache) for /qgpt/question
 * and the stream to take back, and their wire form.
 */
@Injectable()
export class RelevantSnippets {
  private selfApplication: ApplicationWire | null = null;

  constructor(
    private readonly db: Database,
    private readonly space: QuerySpace,
    private readonly retrieval: Retrieval,
    private readonly cache: SnippetCache,
    private readonly applications: ApplicationRegistry,
  ) {}

  /** The best passages of the query spaces of a relevance input, ranked for `query` (the follow-up made standalone, in the stream). */
  async of(input: QGPTRelevanceInputDto, query = input.query): Promise<Snippet[]> {
    const { docs, priors } = await this.space.of(input, query);
    return this.rank(query, docs, priors);
  }

  /** The best passages of the whole store for a question that came without snippets. */
  async fromStore(query: string): Promise<Snippet[]> {
    const { docs, priors } = await this.retrieval.candidates(query);
    return this.rank(query, docs, priors);
  }

  /** The best passages of the documents (at most 2 per document), cached under fresh ids. */
  async rank(query: string, docs: Document[], priors: number[], n = RELEVANT): Promise<Snippet[]> {
    // A commit message is about the whole change: every file's diff, not the passages most like the prompt.
    if (offlineRequest(query).kind === 'commit-message') {
      return docs.map((d) => this.cached({ id: randomUUID(), text: d.text, score: 1, ...sourceOf(d) }));
    }
    return bestPassages(await this.retrieval.passages(query, docs, priors), n).map((p) => {
      const doc = docs[p.doc];
      return this.cached({ id: randomUUID(), text: p.text, score: p.score, ...sourceOf(doc) });
    });
  }

  /** The snippets' wire form, credited to Trove's own application (read once: it is recorded at boot). */
  async wire(snippets: Snippet[]): Promise<RelevantQGPTSeedWire[]> {
    if (snippets.length === 0) return [];
    this.selfApplication ??= applicationWire(await this.db.read((em) => this.applications.self(em)));
    const application = this.selfApplication;
    return snippets.map((s) => relevantSeedWire(s, application));
  }

  private cached(snippet: Snippet): Snippet {
    this.cache.put(snippet);
    return snippet;
  }
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
