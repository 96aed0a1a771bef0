import { AssetsApi, QGPTApi } from '@pieces.app/pieces-os-client';
import { http } from './http';
import { textSeed } from './seeds';
import { TestServer, startTestServer } from './server';

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
  /** `GET /assets/search`, as the CLI's default search asks. */
  search(query: string): Promise<string[]>;
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
      (await qgpt.relevance({ qGPTRelevanceInput: { query, options: { database: true } } })).relevant.iterable.map(
        (r) => r.asset?.id,
      ),
    ncs: async (query) => {
      const res = await http(server.baseUrl, 'GET', `/search/neural_code?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      return (res.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier);
    },
    search: async (query) => {
      const res = await http(
        server.baseUrl,
        'GET',
        `/assets/search?query=${encodeURIComponent(query)}&transferables=false`,
      );
      expect(res.status).toBe(200);
      return (res.json as { iterable: Array<{ identifier: string }> }).iterable.map((r) => r.identifier);
    },
  };
}

/**
 * The same for a whole describe block: a server of its own started before its tests (and closed
 * after) holding the snippets; the ids are filled in when it is up.
 */
export function useRankingStore(snippets: Record<string, string>): Ranking {
  const ids = new Map<string, string>();
  let server: TestServer | undefined;
  let store: Ranking | undefined;
  beforeAll(async () => {
    server = await startTestServer({});
    store = await rankingStore(server, snippets);
    for (const [key, id] of store.ids) ids.set(key, id);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    ids,
    relevance: (query) => store!.relevance(query),
    ncs: (query) => store!.ncs(query),
    search: (query) => store!.search(query),
  };
}
