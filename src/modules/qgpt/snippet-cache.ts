import { Injectable } from '@nestjs/common';

export interface Snippet {
  id: string;
  text: string;
  /** 0..1 against the query it was found for. */
  score: number;
  assetId?: string;
  path?: string;
  /** Found in the store by the question (not given by the client as seeds, paths or assets). */
  retrieved?: boolean;
  /** Where it comes from and what it is, for quoting it (see Document in qgpt-engine.ts). */
  title?: string;
  generic?: string;
  specific?: string;
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
