import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { Retrieval } from '../retrieval.service';
import { SearchedAssetWire, SearchedAssetsWire } from '../wire/searched-assets.wire';

/**
 * GET /search/neural_code (the SDKs' SearchApi, `pieces search --mode ncs`): code found from a
 * description of what it does, with the best ranking Trove has offline, the one relevance
 * uses: candidates by the question's key terms, their passages ranked by BM25 and query coverage
 * with identifiers split into words (`retryWithBackoff` answers "retry ... backoff"), blended
 * with Trove's own small neural model, the code embedding shipped with it (a bag of words
 * trained on docstring/function pairs: code-embedding.ts), or with the provider's embeddings
 * when TROVE_EMBEDDING_MODEL is set.
 */
export class NeuralCodeSearchQuery extends Query<SearchedAssetsWire> {
  constructor(readonly query: string | undefined) {
    super();
  }
}

@QueryHandler(NeuralCodeSearchQuery)
export class NeuralCodeSearchHandler implements IQueryHandler<NeuralCodeSearchQuery> {
  constructor(private readonly retrieval: Retrieval) {}

  async execute({ query }: NeuralCodeSearchQuery): Promise<SearchedAssetsWire> {
    const text = query?.trim() ?? '';
    if (!text) throw new InvalidInput('give a description of the code to find (query=...)');
    const { docs, priors } = await this.retrieval.candidates(text);
    const best = new Map<number, number>();
    for (const passage of await this.retrieval.passages(text, docs, priors))
      if (!best.has(passage.doc)) best.set(passage.doc, passage.score);
    const needle = text.toLowerCase();
    const iterable: SearchedAssetWire[] = [...best.entries()].map(([doc, score]) => {
      const exact = docs[doc].text.toLowerCase().includes(needle);
      return { exact, score, match: 'CONTENT', identifier: docs[doc].assetId };
    });
    const exact = iterable.filter((r) => r.exact).length;
    return { iterable, suggested: iterable.length - exact, exact };
  }
}
