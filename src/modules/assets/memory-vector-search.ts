import { Injectable } from '@nestjs/common';

/** Ids of the memories nearest to a query, nearest first, at most `limit` (none when it cannot tell). */
export type NearestMemories = (query: string, limit: number) => Promise<string[]>;

/**
 * The memories nearest to a query in the configured embedding model, for the memory search of
 * this module (POST /workstream_summaries/search): the search module, which keeps the vectors,
 * registers itself here at start (assets may not depend on search). Nothing registered, or no
 * embedding model configured: no memory is near anything and search is lexical only.
 */
@Injectable()
export class MemoryVectorSearch {
  private nearestOf: NearestMemories | null = null;

  register(nearest: NearestMemories): void {
    this.nearestOf = nearest;
  }

  nearest(query: string, limit: number): Promise<string[]> {
    return this.nearestOf ? this.nearestOf(query, limit) : Promise.resolve([]);
  }
}
