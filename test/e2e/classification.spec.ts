import { AssetsApi } from '@pieces.app/pieces-os-client';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from './support/http';
import { StreamClient } from './support/ws';
import { textSeed } from './support/seeds';
import { testConfig, useTestServer } from './support/server';
import { createApp } from '../../src/bootstrap';

/** Distinct Python snippets that no rule decides: only the language classifier can label them. */
const snippet = (i: number) =>
  `def handler_${i}(event, context):\n    items = [x * ${i} for x in event["items"]]\n    return {"count": len(items), "total": sum(items)}\n`;

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 60000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('language classification under load', () => {
  const server = useTestServer();

  it('labels a single create inline with the model', async () => {
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed(snippet(0)) });
    expect(created.formats.iterable[0].classification).toEqual(
      expect.objectContaining({ generic: 'CODE', specific: 'py' }),
    );
    expect(
      await server.sql(
        `SELECT id FROM formats WHERE classification_pending = ${server.config.dialect === 'postgres' ? 'true' : '1'}`,
      ),
    ).toHaveLength(0);
  });

  it('labels concurrent creates inline: nothing is left pending, each create is announced once', async () => {
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
    await stream.next();
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => http(server.baseUrl, 'POST', '/assets/create', textSeed(snippet(i + 1)))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const res of results) {
      expect(res.json.formats.iterable[0].classification).toEqual(
        expect.objectContaining({ generic: 'CODE', specific: 'py' }),
      );
      // The name, description and tags came with the create.
      expect(res.json.name).toMatch(/^handler_\d+ \(Python function\)$/);
      expect(res.json.tags.iterable[0].text).toBe('python');
    }
    const announced = new Map<string, number>();
    while (results.some((r) => !announced.has(r.json.id))) {
      const frame = await stream.next();
      for (const item of frame.iterable) announced.set(item.asset.id, (announced.get(item.asset.id) ?? 0) + 1);
    }
    stream.close();
    for (const res of results) expect(announced.get(res.json.id)).toBe(1);
    const pending = await server.sql(
      `SELECT id FROM formats WHERE classification_pending = ${server.config.dialect === 'postgres' ? 'true' : '1'}`,
    );
    expect(pending).toHaveLength(0);
    const filtered = await http(server.baseUrl, 'POST', '/assets/search', {
      filters: { iterable: [{ classification: 'py' }] },
    });
    expect(filtered.json.results.iterable.length).toBeGreaterThanOrEqual(20);
  });

  it('refines formats an older build left pending when the next instance starts', async () => {
    const created = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed(snippet(99)) });
    const formatId = created.formats.iterable[0].id;
    await server.sql(
      `UPDATE formats SET specific = 'UNKNOWN', classification_pending = ${server.config.dialect === 'postgres' ? 'true' : '1'} WHERE id = '${formatId}'`,
    );
    const env = { DATABASE_URL: server.config.databaseUrl ?? '', TROVE_DATA_DIR: server.config.dataDir };
    const second: NestFastifyApplication = await createApp(testConfig({ ...env, TROVE_LOG_LEVEL: 'error' }));
    await second.listen(0, '127.0.0.1');
    try {
      const rows = await until(
        () =>
          server.sql<{ specific: string; pending: unknown }>(
            `SELECT specific, classification_pending AS pending FROM formats WHERE id = '${formatId}'`,
          ),
        (r) => r[0].specific !== 'UNKNOWN',
      );
      expect(rows[0].specific).toBe('py');
      expect(Boolean(rows[0].pending)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
