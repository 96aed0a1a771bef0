import { AssetsApi } from '@pieces.app/pieces-os-client';
import { ANALYSIS_VERSION } from '../../src/modules/search/search-index.service';
import { textSeed } from './support/seeds';
import { TestServer, searchReindexed, startTestServer } from './support/server';

/**
 * A store whose search index an older release wrote (an older text analysis: `search_analysis`
 * says which) is re-indexed when a release with a newer analysis boots on it, once, by one
 * instance in the background while every instance serves (PostgreSQL under `npm run test:pg`: of instances booting
 * together, the one that takes a lock does it; SQLite: one file, the new instance boots while the first is idle).
 *
 * An older index is made by changing an asset's text behind the index's back and marking the
 * index as written by version 1: what the index holds is then what an analysis different from
 * this release's made of the asset.
 */
describe('search index re-indexed at boot after a change of analysis', () => {
  let a: TestServer;
  const others: TestServer[] = [];
  const found = async (server: TestServer, query: string) =>
    (await new AssetsApi(server.sdk).searchAssets({ query })).iterable.map((s) => s.identifier);
  const param = (server: TestServer, n: number) => (server.config.databaseUrl ? `$${n}` : '?');
  beforeAll(async () => {
    a = await startTestServer();
  });
  afterAll(async () => {
    for (const server of others.reverse()) await server.close();
    await a.close();
  });

  it('rewrites the index of every live asset with the current analysis, once, and records it', async () => {
    const assets = new AssetsApi(a.sdk);
    const joined = await assets.assetsCreateNewAsset({
      seed: textSeed('def rows_to_list(handle):\n    return list(handle)\n'),
      transferables: false,
    });
    const kept = await assets.assetsCreateNewAsset({
      seed: textSeed('const retryBudget = 3;\n'),
      transferables: false,
    });
    const gone = await assets.assetsCreateNewAsset({ seed: textSeed('const staleEntry = 1;\n'), transferables: false });
    await assets.assetsDeleteAsset({ asset: gone.id });
    expect(await a.sql(`SELECT version FROM search_analysis`)).toEqual([{ version: ANALYSIS_VERSION }]);

    await a.sql(`UPDATE formats SET raw = ${param(a, 1)} WHERE asset_id = ${param(a, 2)}`, [
      'def valuestodict(handle):\n    return dict(handle)\n',
      joined.id,
    ]);
    await a.sql(`UPDATE search_analysis SET version = 1`);
    await a.sql(`DELETE FROM search_vectors`); // written by a release before the dense index
    expect(await found(a, 'values dict')).toEqual([]); // the index is the old one
    expect(await found(a, 'rows_to_list')).toEqual([joined.id]);

    // Two instances boot on the store together (PostgreSQL); one re-indexes, the other leaves it to that one.
    const booting = a.config.databaseUrl
      ? [startTestServer({}, { shareWith: a }), startTestServer({}, { shareWith: a })]
      : [startTestServer({}, { shareWith: a })];
    others.push(...(await Promise.all(booting)));
    // the re-indexing runs in the background once the server serves: the version is recorded when it is done
    await searchReindexed(a, ANALYSIS_VERSION);
    for (const server of [a, ...others]) {
      expect(await found(server, 'values dict')).toEqual([joined.id]);
      expect(await found(server, 'retryBudget')).toEqual([kept.id]);
      expect(await found(server, 'staleEntry')).toEqual([]);
    }
    // one document per live asset: nothing indexed twice, nothing deleted brought back
    const documents = await a.sql<{ asset_id: string }>(`SELECT asset_id FROM search_documents`);
    expect(documents.map((d) => d.asset_id).sort()).toEqual([joined.id, kept.id].sort());
    // and each live asset's vector in the code embedding (the dense stage of relevance and search)
    const vectors = await a.sql<{ asset_id: string }>(`SELECT asset_id FROM search_vectors`);
    expect(vectors.map((d) => d.asset_id).sort()).toEqual([joined.id, kept.id].sort());
  });
});
