import { AssetApi, AssetsApi } from '@pieces.app/pieces-os-client';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { textSeed } from '../e2e/support/seeds';
import { TestServer, startTestServer } from '../e2e/support/server';

/**
 * SQLite keeps committed writes in the write-ahead log until a checkpoint copies them into the
 * database file. The writing connection only does that past 10,000 WAL pages (a backstop);
 * WalCheckpointer does it from a connection of its own every 250 ms, off the writers' COMMITs.
 */
describe('WAL checkpoints (SQLite)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const snippet = (n: number) =>
    Array.from(
      { length: 500 },
      (_, i) => `const value${n}_${i} = compute(${n}, ${i}); // step ${i} of snippet ${n}`,
    ).join('\n');

  it('copies committed writes into the database file within a second, long before the writer would', async () => {
    const file = join(server.config.dataDir, 'trove.db');
    const wal = `${file}-wal`;
    const before = statSync(file).size;
    const assets = new AssetsApi(server.sdk);
    const ids: string[] = [];
    for (let n = 0; n < 30; n++)
      ids.push((await assets.assetsCreateNewAsset({ transferables: false, seed: textSeed(snippet(n)) })).id);
    // ~1.7 MB of text plus its index: far below the writer's own threshold (10,000 pages, ~40 MB).
    expect(statSync(wal).size).toBeLessThan(10_000 * 4096);
    const deadline = Date.now() + 3000;
    while (statSync(file).size - before < 1_500_000 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(file).size - before).toBeGreaterThanOrEqual(1_500_000);
    // What was checkpointed reads back whole.
    const asset = new AssetApi(server.sdk);
    for (const [n, id] of ids.entries()) {
      const read = await asset.assetSnapshot({ asset: id });
      expect(read.formats.iterable![0].fragment!.string!.raw).toBe(snippet(n));
    }
  });
});
