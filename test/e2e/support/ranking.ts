import { AssetsApi, QGPTApi } from '@pieces.app/pieces-os-client';
import { http } from './http';
import { textSeed } from './seeds';
import { TestServer } from './server';

/**
 * For specs about how relevance and neural code search rank a store of unnamed snippets: the
 * snippets saved as the Pieces CLI saves them (no name: Trove names each after what it defines),
 * and each endpoint's answer as asset ids, best first.
 */
export interface Ranking {
  /** Asset id of each snippet, by its key. */
  ids: Map<string, string>;
  relevance(query: string): Promise<Array<string | undefined>>;
  ncs(query: string): Promise<string[]>;
}

export async function rankingStore(server: TestServer, snippets: Record<string, string>): Promise<Ranking> {
  const qgpt = new QGPTApi(server.sdk);
  const assets = new AssetsApi(server.sdk);
  const ids = new Map<string, string>();
  for (const [key, text] of Object.entries(snippets)) {
    const asset = await assets.assetsCreateNewAsset({ seed: textSeed(text), transferables: false });
    ids.set(key, asset.id);
  }
  return {
    ids,
    relevance: async (query) =>
      (await qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } })).relevant.iterable.map((r) => r.asset?.id),
    ncs: async (query) => {
      const res = await http(server.baseUrl, 'GET', `/search/neural_code?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      return (res.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier);
    },
  };
}
