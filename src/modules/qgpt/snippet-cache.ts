import { Injectable } from '@nestjs/common';

/** What a question is answered from: an asset, a local file or a seed the client sent. */
export interface Document {
  text: string;
  assetId?: string;
  path?: string;
  /** Found in the store by the question, rather than given by the client. */
  retrieved?: boolean;
  /** What the document is called where it comes from (an asset's name, a file's path). */
  title?: string;
  /** Its text starts with its title (a name the user gave), then a blank line. */
  titled?: boolean;
  /** Its classification, when known: `generic` CODE/TEXT/..., `specific` py/ts/md/... */
  generic?: string;
  specific?: string;
  /** The memory (workstream summary) or conversation it was read from, for question answering over the whole memory (MCP). */
  memoryId?: string;
  conversationId?: string;
  /** The store's own spelling of query words it did not know (search's typo corrections), when retrieved. */
  corrections?: string[];
  /** Prose (a memory, a conversation's message): ranked by its words, not by the code embedding. */
  prose?: boolean;
  /** Found by the embedding model's vector index (ModelVectorIndex): ranked by its closeness to the question even when no word of it matches. */
  near?: boolean;
}

/** A passage relevance returned: a document's text (or part of it) with its score. */
export interface Snippet extends Document {
  id: string;
  /** 0..1 against the query it was found for. */
  score: number;
}

const CAPACITY = 50_000;

/**
 * The snippets relevance returned, by id, so /qgpt/question (and the stream) can take the
 * ids back. In memory, least recently used dropped first; an id that has gone (restart,
 * eviction) is a 400 that says so.
 */
@Injectable()
export class SnippetCache {
  private readonly map = new Map<string, Snippet>();

  put(snippet: Snippet): void {
    this.map.delete(snippet.id);
    this.map.set(snippet.id, snippet);
    if (this.map.size > CAPACITY) this.map.delete(this.map.keys().next().value!);
  }

  get(id: string): Snippet | undefined {
    const found = this.map.get(id.toLowerCase());
    if (found) {
      this.map.delete(found.id);
      this.map.set(found.id, found);
    }
    return found;
  }
}
