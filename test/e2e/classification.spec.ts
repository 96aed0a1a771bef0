import { AssetsApi } from '@pieces.app/pieces-os-client';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { http } from './support/http';
import { StreamClient } from './support/ws';
import { textSeed } from './support/seeds';
import { startTestServer, testConfig, useTestServer } from './support/server';
import { createApp } from '../../src/bootstrap';
import { LanguageDetector } from '../../src/modules/intelligence/language-detector.service';

/** Distinct Python snippets that no rule decides: only the language model can label them. */
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
    expect(created.formats.iterable[0].classification).toEqual(expect.objectContaining({ generic: 'CODE', specific: 'py' }));
    expect(await server.sql(`SELECT id FROM formats WHERE classification_pending = ${server.config.dialect === 'postgres' ? 'true' : '1'}`)).toHaveLength(0);
  });

  it('does not make concurrent creates wait for the model: provisional labels are refined after commit', async () => {
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
    await stream.next();
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => http(server.baseUrl, 'POST', '/assets/create', textSeed(snippet(i + 1)))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const provisional = results.filter((r) => r.json.formats.iterable[0].classification.specific === 'UNKNOWN');
    expect(provisional.length).toBeGreaterThan(0);
    for (const res of results) {
      const label = await until(
        async () => (await http(server.baseUrl, 'GET', `/asset/${res.json.id}`)).json.formats.iterable[0].classification,
        (c) => c.specific !== 'UNKNOWN',
      );
      expect(label).toEqual({ generic: 'CODE', specific: 'py' });
    }
    // Each refinement is announced: a provisional asset appears on the stream again after its create.
    const announced = new Map<string, number>();
    for (;;) {
      const frame = await stream.next().catch(() => null);
      if (!frame) break;
      for (const item of frame.iterable) announced.set(item.asset.id, (announced.get(item.asset.id) ?? 0) + 1);
      if (provisional.every((r) => (announced.get(r.json.id) ?? 0) >= 2)) break;
    }
    stream.close();
    for (const res of provisional) expect(announced.get(res.json.id)).toBeGreaterThanOrEqual(2);
    const pending = await server.sql(`SELECT id FROM formats WHERE classification_pending = ${server.config.dialect === 'postgres' ? 'true' : '1'}`);
    expect(pending).toHaveLength(0);
    // The name, description and tags a provisional create was saved without came with its label.
    for (const res of provisional) {
      expect(res.json.name).toBeUndefined();
      const asset = (await http(server.baseUrl, 'GET', `/asset/${res.json.id}`)).json;
      expect(asset.name).toMatch(/^handler_\d+ \(Python function\)$/);
      expect(asset.tags.iterable[0].text).toBe('python');
      expect(asset.annotations.iterable.map((a: { type: string; text: string }) => [a.type, a.text])).toEqual([
        ['DESCRIPTION', expect.stringMatching(/^Python function `handler_\d+`/)],
      ]);
    }
    // The refined label is searchable by the classification filter.
    const filtered = await http(server.baseUrl, 'POST', '/assets/search', { filters: { iterable: [{ classification: 'py' }] } });
    expect(filtered.json.results.iterable.length).toBeGreaterThanOrEqual(Math.min(20, results.length));
  });

  it('a stop finishes the refinement in flight with the model, then frees the model', async () => {
    // highlight.js alone calls these Dart; the blend with the model says Python.
    const asyncPython = (i: number) =>
      `async def fetch_all_${i}(session, urls):\n    tasks = [asyncio.create_task(fetch(session, u)) for u in urls]\n` +
      `    results = await asyncio.gather(*tasks, return_exceptions=True)\n    return {u: r for u, r in zip(urls, results) if not isinstance(r, Exception)}\n`;
    const other = await startTestServer({}, { shareWith: server });
    let closed = false;
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => http(other.baseUrl, 'POST', '/assets/create', textSeed(asyncPython(i)))));
      expect(results.filter((r) => r.json.formats.iterable[0].classification.specific === 'UNKNOWN').length).toBeGreaterThan(0);
      const loadsBefore = LanguageDetector.model.loadCount;
      await other.close();
      closed = true;
      // Each format is either still pending (to be refined at the next start) or labelled with the model's help.
      const rows = await server.sql<{ specific: string; pending: unknown }>(
        `SELECT specific, classification_pending AS pending FROM formats WHERE raw LIKE 'async def fetch_all_%'`,
      );
      expect(rows).toHaveLength(12);
      for (const row of rows) expect(row.specific).toBe(row.pending ? 'UNKNOWN' : 'py');
      // The model was not loaded again after it was freed.
      expect(LanguageDetector.model.loadCount).toBe(loadsBefore);
      expect(LanguageDetector.model.isLoaded).toBe(false);
    } finally {
      if (!closed) await other.close();
    }
  });

  it('refines formats left pending by a stop when the next instance starts', async () => {
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
        () => server.sql<{ specific: string; pending: unknown }>(`SELECT specific, classification_pending AS pending FROM formats WHERE id = '${formatId}'`),
        (r) => r[0].specific !== 'UNKNOWN',
      );
      expect(rows[0].specific).toBe('py');
      expect(Boolean(rows[0].pending)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
