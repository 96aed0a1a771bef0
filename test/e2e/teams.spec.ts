import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AssetsApi, Configuration } from '@pieces.app/pieces-os-client';
import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, http, RawResponse } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer, testDatabaseUrl } from './support/server';
import { addUser, bearer, trove } from './support/team';
import { StreamClient, upgradeAnswer } from './support/ws';

const sdkOf = (server: TestServer, token: string) =>
  new Configuration({ basePath: server.baseUrl, headers: bearer(token) });
const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  ((result as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

async function mcpClient(server: TestServer, headers: Record<string, string>, base = server.baseUrl): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/model_context_protocol/2025-03-26/mcp`), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'teams-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Bob's whole store as his own export sees it (the export's own time left out). */
async function digest(server: TestServer, token: string): Promise<string> {
  const res = await http(server.baseUrl, 'GET', '/trove/export', undefined, bearer(token));
  expect(res.status).toBe(200);
  return res.text
    .split('\n')
    .filter((line) => line && !/"exported(At)?"/.test(line))
    .sort()
    .join('\n');
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() - started > ms) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe('a team deployment: users, their own stores, spaces, audit', () => {
  let server: TestServer;
  let alice: string; // admin, adopts the store that existed before users
  let bob: string; // the victim
  let carol: string; // the other user, who tries everything with Bob's ids
  const MARKER = `zebrafinch${Math.random().toString(36).slice(2, 8)}`;
  const bobIds: Record<string, string> = {};
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startTestServer({ TROVE_RATE_LIMIT: '0', TROVE_RATE_LIMIT_QGPT: '0', TROVE_RATE_LIMIT_MCP: '0' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server.close();
  });

  it('behaves as before while no user exists, then needs a token on every route but health and the web app', async () => {
    const before = await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed('const beforeUsers = 1;') });
    expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);

    alice = await addUser(server, 'alice', true);
    bob = await addUser(server, 'bob');
    carol = await addUser(server, 'carol');

    // The running server picks the new directory up within a second (a request with a token it
    // does not know yet makes it look at once).
    expect((await http(server.baseUrl, 'GET', '/assets', undefined, bearer(carol))).status).toBe(200);
    const refused = await until(
      () => http(server.baseUrl, 'GET', '/assets'),
      (res) => res.status === 401,
      3000,
    );
    expectError(refused, 401, /send a user's token/);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expectError(
      await http(server.baseUrl, 'GET', '/assets', undefined, bearer('trove_' + 'x'.repeat(43))),
      401,
      /token is not valid/,
    );
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
    expect((await http(server.baseUrl, 'GET', '/.well-known/ready')).status).toBe(200);
    expect((await upgradeAnswer(`${server.baseUrl}/assets/stream/identifiers`)) as { status: number }).toMatchObject({
      status: 401,
    });

    // The first user adopted the store that existed: what was saved before users is Alice's.
    const mine = await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(alice));
    expect(JSON.stringify(mine.json)).toContain(before.id);
    const theirs = await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(bob));
    expect(theirs.json).toMatchObject({ iterable: [] });

    const list = await trove(server, ['users', 'list', '--json']);
    const users = JSON.parse(list.stdout) as Array<{ name: string; admin: boolean; store: string }>;
    expect(users.map((u) => [u.name, u.admin])).toEqual([
      ['alice', true],
      ['bob', false],
      ['carol', false],
    ]);
    expect(users[0].store).toBe('');
    expect(users[1].store).toMatch(/^users\/[0-9a-f]{16}$/);
    // Tokens are stored as digests only.
    const control = server.config.databaseUrl ? null : readFileSync(join(server.config.dataDir, 'control.db'));
    if (control) expect(control.includes(Buffer.from(bob))).toBe(false);
  });

  it("keeps each user's records in a store of their own (a SQLite file or a PostgreSQL schema)", async () => {
    const assets = new AssetsApi(sdkOf(server, bob));
    const asset = await assets.assetsCreateNewAsset({
      seed: textSeed(`def ${MARKER}_rows(db):\n    return db.fetch("${MARKER}")\n`),
    });
    bobIds.asset = asset.id;
    bobIds.format = asset.formats.iterable![0].id;
    const conversation = await http(
      server.baseUrl,
      'POST',
      '/conversations/create',
      { name: `${MARKER} chat`, type: 'COPILOT' },
      bearer(bob),
    );
    expect(conversation.status).toBe(200);
    bobIds.conversation = (conversation.json as { id: string }).id;
    const tag = await http(
      server.baseUrl,
      'POST',
      '/tags/create',
      { text: `${MARKER}tag`, asset: bobIds.asset },
      bearer(bob),
    );
    expect(tag.status).toBe(200);
    bobIds.tag = (tag.json as { id: string }).id;
    const mcp = await mcpClient(server, bearer(bob));
    clients.push(mcp);
    const memory = await mcp.callTool({
      name: 'create_pieces_memory',
      arguments: { summary_description: `${MARKER} memory`, summary: `We fixed the ${MARKER} outage.` },
    });
    expect(textOf(memory)).not.toMatch(/error/i);
    const memories = await http(server.baseUrl, 'GET', '/workstream_summaries', undefined, bearer(bob));
    bobIds.workstream_summary = (memories.json as { iterable: Array<{ id: string }> }).iterable[0].id;

    const bobStore = (await trove(server, ['users', 'list', '--json'])).stdout;
    const store = (JSON.parse(bobStore) as Array<{ name: string; store: string }>).find((u) => u.name === 'bob')!.store;
    if (server.config.databaseUrl) {
      const schema = `trove_${store.replace('/', '_')}`;
      const rows = await server.sql<{ n: string }>(`SELECT COUNT(*) AS n FROM "${schema}".assets`);
      expect(Number(rows[0].n)).toBe(1);
    } else {
      expect(existsSync(join(server.config.dataDir, store, 'trove.db'))).toBe(true);
    }
    // The process's own store (Alice's) holds none of it.
    const own = await server.sql<{ id: string }>('SELECT id FROM assets');
    expect(own.map((r) => r.id)).not.toContain(bobIds.asset);
  });

  it("answers every documented operation sent with Bob's ids by another user as it answers ids that never existed, and leaves Bob's store unchanged", async () => {
    const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // Settled first: activities are written in batches a second after what they record.
    const settled = await until(
      async () => {
        const first = await digest(server, bob);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return [first, await digest(server, bob)];
      },
      ([a, b]) => a === b,
      20_000,
    );
    const before = settled[0];
    expect(before).toContain(MARKER);
    const fresh: Record<string, string> = Object.fromEntries(Object.keys(bobIds).map((k) => [k, randomUUID()]));
    const idFor = (ids: Record<string, string>, param: string) =>
      ids[param] ?? ids[param.replace(/s$/, '')] ?? ids.asset;
    const fill = (path: string, ids: Record<string, string>) =>
      path.replace(/\{([^}]+)\}/g, (_m, p: string) => idFor(ids, p));
    const bodyFor = (ids: Record<string, string>) => ({
      id: ids.asset,
      asset: ids.asset,
      conversation: ids.conversation,
      query: MARKER,
      text: MARKER,
      assets: { iterable: [{ id: ids.asset }] },
      iterable: [{ id: ids.asset }],
    });
    const skipped = (path: string) => /\/sse$|\/stream\b|\/download\/progress/.test(path);
    let sent = 0;
    const leaks: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      if (skipped(path)) continue;
      for (const method of Object.keys(methods)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const send = (ids: Record<string, string>): Promise<RawResponse> =>
          http(
            server.baseUrl,
            method.toUpperCase(),
            fill(path, ids),
            method === 'get' || method === 'delete' ? undefined : bodyFor(ids),
            bearer(carol),
          );
        const [theirs, never] = [await send(bobIds), await send(fresh)];
        sent++;
        const what = `${method.toUpperCase()} ${path}`;
        expect([what, theirs.status]).not.toEqual([what, 500]);
        if (theirs.text.includes(MARKER) && !/"query"|"text"/.test(theirs.text)) leaks.push(`${what}: content`);
        const echoed = (text: string, ids: Record<string, string>) => {
          let out = text;
          for (const [kind, id] of Object.entries(ids)) out = out.split(id).join(`<${kind}>`);
          return out
            .replace(UUID, '<new>')
            .replace(/"(created|updated|value|readable|timestamp|at|ms|elapsed)":[^,}]+/g, '"$1":_');
        };
        if (theirs.status !== never.status)
          leaks.push(`${what}: ${theirs.status} for Bob's ids, ${never.status} for unknown ids`);
        else if (theirs.status >= 400 && echoed(theirs.text, bobIds) !== echoed(never.text, fresh))
          leaks.push(`${what}: answers differ`);
      }
    }
    expect(sent).toBeGreaterThan(150);
    expect(leaks).toEqual([]);
    expect(await digest(server, bob)).toBe(before);
  });

  it('keeps fuzzed ids across users apart: any of Bob ids on any read route is unknown to Carol', async () => {
    const routes = [
      '/asset/{id}',
      '/asset/{id}/formats',
      '/conversation/{id}',
      '/format/{id}',
      '/tag/{id}',
      '/workstream_summary/{id}',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.constantFrom(...Object.values(bobIds)), async (route, id) => {
        const res = await http(server.baseUrl, 'GET', route.replace('{id}', id), undefined, bearer(carol));
        expect(res.status).toBe(404);
        expect(res.text).not.toContain(MARKER);
        const own = await http(server.baseUrl, 'GET', route.replace('{id}', id), undefined, bearer(bob));
        expect(own.status === 200 || own.status === 404).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("keeps streams, MCP and search apart: Carol's stream, tools and questions never see Bob's records", async () => {
    const carolStream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', {
      headers: bearer(carol),
    });
    const bobStream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', { headers: bearer(bob) });
    try {
      expect(JSON.stringify(await carolStream.next())).not.toContain(bobIds.asset);
      expect(JSON.stringify(await bobStream.next())).toContain(bobIds.asset);
      const carols = await new AssetsApi(sdkOf(server, carol)).assetsCreateNewAsset({
        seed: textSeed('const carolsOwn = 2;'),
      });
      const seen = await carolStream.next();
      expect(JSON.stringify(seen)).toContain(carols.id);
      // Bob's stream says nothing of Carol's create.
      await new AssetsApi(sdkOf(server, bob)).assetsCreateNewAsset({ seed: textSeed('const bobsSecond = 3;') });
      const next = JSON.stringify(await bobStream.next());
      expect(next).not.toContain(carols.id);
    } finally {
      carolStream.socket.terminate();
      bobStream.socket.terminate();
    }

    const mcp = await mcpClient(server, bearer(carol));
    clients.push(mcp);
    for (const [name, args] of [
      ['search_snippets', { query: MARKER }],
      ['ask_pieces_ltm', { question: `What about ${MARKER}?` }],
      ['get_snippet', { id: bobIds.asset }],
    ] as const) {
      const result = await mcp.callTool({ name, arguments: args });
      expect(textOf(result)).not.toContain(`${MARKER}_rows`);
      expect(textOf(result)).not.toContain(`${MARKER} outage`);
    }
    const search = await http(server.baseUrl, 'POST', '/assets/search', { query: MARKER }, bearer(carol));
    expect(search.text).not.toContain(bobIds.asset);
    const own = await http(server.baseUrl, 'POST', '/assets/search', { query: MARKER }, bearer(bob));
    expect(own.text).toContain(bobIds.asset);
  });

  it('serves a user under a per-user base URL (/u/<token>), MCP and streams included, for clients that cannot send headers', async () => {
    const base = `${server.baseUrl}/u/${bob}`;
    const listed = await http(base, 'GET', '/assets/identifiers');
    expect(JSON.stringify(listed.json)).toContain(bobIds.asset);
    const versions = await http(base, 'GET', '/model_context_protocol/schema_versions');
    const endpoints = (versions.json as { iterable: Array<{ entry_endpoint: string }> }).iterable.map(
      (v) => v.entry_endpoint,
    );
    expect(endpoints[1]).toBe(`${base}/model_context_protocol/2025-03-26/mcp`);
    const mcp = await mcpClient(server, {}, base);
    clients.push(mcp);
    expect(textOf(await mcp.callTool({ name: 'search_snippets', arguments: { query: MARKER } }))).toContain(MARKER);
    const stream = await StreamClient.open(base, '/assets/stream/identifiers');
    expect(JSON.stringify(await stream.next())).toContain(bobIds.asset);
    stream.socket.terminate();
    expectError(await http(`${server.baseUrl}/u/trove_${'y'.repeat(43)}`, 'GET', '/assets'), 401, /token is not valid/);
  });

  it('keeps what acts on the whole server for admins: metrics, restart, terminate', async () => {
    expectError(await http(server.baseUrl, 'GET', '/metrics', undefined, bearer(carol)), 403, /admins/);
    expectError(await http(server.baseUrl, 'POST', '/os/terminate', undefined, bearer(carol)), 403, /only an admin/);
    expectError(await http(server.baseUrl, 'GET', '/os/restart', undefined, bearer(carol)), 403, /only an admin/);
    const metrics = await http(server.baseUrl, 'GET', '/metrics', undefined, bearer(alice));
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^trove_open_stores [2-9]/m);
    expect(metrics.text).toMatch(/trove_http_requests_total\{method="GET",route="\/asset\/:asset",status="404"\}/);
  });

  it('shares a space: its editors write, its readers read, others do not see it; a reader cannot write', async () => {
    expect((await trove(server, ['spaces', 'add', 'platform'])).code).toBe(0);
    expect((await trove(server, ['spaces', 'member', 'platform', 'bob', '--role', 'editor'])).code).toBe(0);
    expect((await trove(server, ['spaces', 'member', 'platform', 'carol', '--role', 'reader'])).code).toBe(0);
    const inSpace = (token: string) => ({ ...bearer(token), 'x-trove-space': 'platform' });
    const shared = await until(
      () => http(server.baseUrl, 'POST', '/assets/create', textSeed(`const sharedRunbook${MARKER} = 1;`), inSpace(bob)),
      (res) => res.status === 200,
    );
    expect(shared.status).toBe(200);
    const sharedId = (shared.json as { id: string }).id;
    const read = await http(server.baseUrl, 'GET', `/asset/${sharedId}`, undefined, inSpace(carol));
    expect(read.status).toBe(200);
    expectError(
      await http(server.baseUrl, 'POST', '/assets/create', textSeed('const nope = 1;'), inSpace(carol)),
      403,
      /reader of .+platform/,
    );
    expect(
      (await http(server.baseUrl, 'POST', '/assets/search', { query: 'sharedRunbook' }, inSpace(carol))).status,
    ).toBe(200);
    // Not in anyone's own store, and not for a non-member.
    expect((await http(server.baseUrl, 'GET', `/asset/${sharedId}`, undefined, bearer(bob))).status).toBe(404);
    expectError(
      await http(server.baseUrl, 'GET', '/assets', undefined, inSpace(alice)),
      404,
      /no space .+platform.+ that you belong to/,
    );
  });

  it('rotates and removes tokens: the old one stops working at once', async () => {
    const rotated = await trove(server, ['users', 'token', 'carol']);
    expect(rotated.code).toBe(0);
    const fresh = rotated.stdout.trim().split('\n').pop()!;
    expect((await http(server.baseUrl, 'GET', '/assets', undefined, bearer(fresh))).status).toBe(200);
    await until(
      () => http(server.baseUrl, 'GET', '/assets', undefined, bearer(carol)),
      (res) => res.status === 401,
      3000,
    );
    expectError(await http(server.baseUrl, 'GET', '/assets', undefined, bearer(carol)), 401);
    carol = fresh;
    const duplicate = await trove(server, ['users', 'add', 'carol']);
    expect(duplicate.code).toBe(1);
  });

  it('records who did what in the audit log, never content or tokens, and `trove audit` filters it', async () => {
    const entries = await until(
      async () =>
        (await trove(server, ['audit', '--json'])).stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      (list) => list.some((e: { action: string; userName: string }) => e.action === 'create' && e.userName === 'bob'),
    );
    const creates = entries.filter(
      (e: { action: string; userName: string }) => e.action === 'create' && e.userName === 'bob',
    );
    expect(creates.map((e: { record: string }) => e.record)).toContain(bobIds.asset);
    expect(creates[0]).toMatchObject({ method: 'POST', route: '/assets/create', status: 200, client: '127.0.0.1' });
    expect(
      entries.some((e: { action: string; status: number }) => e.action === 'auth.failed' && e.status === 401),
    ).toBe(true);
    expect(entries.some((e: { action: string; record: string }) => e.action === 'user.add' && e.record === 'bob')).toBe(
      true,
    );
    expect(entries.some((e: { action: string }) => e.action === 'export')).toBe(true);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(MARKER);
    for (const token of [alice, bob, carol]) expect(text).not.toContain(token);
    const onlyBob = (
      await trove(server, ['audit', '--json', '--user', 'bob', '--action', 'create', '--since', '1h'])
    ).stdout
      .trim()
      .split('\n');
    expect(onlyBob.length).toBeGreaterThan(0);
    expect(onlyBob.every((line) => JSON.parse(line).userName === 'bob' && JSON.parse(line).action === 'create')).toBe(
      true,
    );
    expect((await trove(server, ['audit', '--since', 'yesterday-ish'])).code).toBe(2);
  });

  it('writes a flood of bad tokens from one address as one entry at once and then their count, not an entry each', async () => {
    const failures = async () =>
      (await trove(server, ['audit', '--json', '--action', 'auth.failed'])).stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { record: string | null; client: string });
    const before = (await failures()).length;
    for (let i = 0; i < 30; i++)
      expectError(
        await http(server.baseUrl, 'GET', '/assets', undefined, bearer(`trove_${randomBytes(24).toString('hex')}`)),
        401,
      );
    // At most one window (10 s) boundary fell inside the flood: one or two entries, not thirty.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await failures()).length - before).toBeLessThanOrEqual(2);
    // Then the window's count: the most of the flood in one entry.
    const counted = await until(
      failures,
      (list) => list.some((e) => /^\d+ more since /.test(e.record ?? '') && Number(e.record!.split(' ')[0]) >= 14),
      15_000,
    );
    const entry = counted.find(
      (e) => /^\d+ more since /.test(e.record ?? '') && Number(e.record!.split(' ')[0]) >= 14,
    )!;
    expect(entry.client).toBe('127.0.0.1');
    expect(counted.length - before).toBeLessThanOrEqual(4);
  }, 30_000);
});

/** A fresh PostgreSQL schema (every table and index of the migrations) takes a few MB by itself. */
const QUOTA_MB = testDatabaseUrl ? 24 : 4;
const API_KEY = 'team-suite-api-key-0123456789';
const SCRAPE_TOKEN = 'team-suite-scrape-token-0123456789';

describe('a team deployment: stores open on demand and close when idle; a storage quota per user', () => {
  let server: TestServer;
  let admin: string;
  const openStores = async () => {
    const metrics = await http(server.baseUrl, 'GET', '/metrics', undefined, bearer(admin));
    return Number(/^trove_open_stores (\d+)/m.exec(metrics.text)![1]);
  };

  beforeAll(async () => {
    server = await startTestServer({
      TROVE_STORE_IDLE_SECONDS: '3',
      TROVE_MAX_OPEN_STORES: '2',
      TROVE_USER_QUOTA_MB: String(QUOTA_MB),
      TROVE_API_KEYS: API_KEY,
      TROVE_METRICS_TOKEN: SCRAPE_TOKEN,
    });
    admin = await addUser(server, 'root', true);
  });
  afterAll(() => server.close());

  it('serves the first user (the existing store) whatever TROVE_API_KEYS says; the keys and the scrape token reach no store', async () => {
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', { headers: bearer(admin) });
    expect(await stream.next()).toHaveProperty('iterable');
    stream.socket.terminate();
    expect((await http(server.baseUrl, 'GET', '/assets', undefined, bearer(admin))).status).toBe(200);
    expectError(await http(server.baseUrl, 'GET', '/assets', undefined, bearer(API_KEY)), 401, /token is not valid/);
    expectError(
      await http(server.baseUrl, 'GET', '/assets', undefined, bearer(SCRAPE_TOKEN)),
      401,
      /token is not valid/,
    );
    const scraped = await http(server.baseUrl, 'GET', '/metrics', undefined, bearer(SCRAPE_TOKEN));
    expect(scraped.status).toBe(200);
    expect(scraped.text).toMatch(/^trove_open_stores \d+/m);
  });

  it('opens a store at its first request, closes it once idle, and opens it again with its records', async () => {
    const erin = await addUser(server, 'erin');
    const created = await http(
      server.baseUrl,
      'POST',
      '/assets/create',
      textSeed('const kept = "across a close";'),
      bearer(erin),
    );
    expect(created.status).toBe(200);
    const open = await openStores();
    expect(open).toBe(2); // the process's own (root's) and erin's
    expect(await until(openStores, (n) => n === 1, 15_000)).toBe(1);
    const again = await http(
      server.baseUrl,
      'GET',
      `/asset/${(created.json as { id: string }).id}`,
      undefined,
      bearer(erin),
    );
    expect(again.status).toBe(200);
    expect(again.text).toContain('across a close');
  });

  it('keeps at most TROVE_MAX_OPEN_STORES team stores open, closing the least recently used idle one', async () => {
    const tokens = [await addUser(server, 'u1'), await addUser(server, 'u2'), await addUser(server, 'u3')];
    for (const token of tokens) {
      expect((await http(server.baseUrl, 'GET', '/assets', undefined, bearer(token))).status).toBe(200);
      expect(await openStores()).toBeLessThanOrEqual(3); // the process's own + 2
    }
    const all = await Promise.all(
      tokens.map((token) => http(server.baseUrl, 'GET', '/assets', undefined, bearer(token))),
    );
    expect(all.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it('refuses writes past the quota with a 413 that says so, while reads and deletes still work', async () => {
    const frank = await addUser(server, 'frank');
    // Random text: PostgreSQL compresses a repeated one to nothing.
    const big = randomBytes(768 * 1024).toString('base64');
    const ids: string[] = [];
    // The size is measured at most every 10 s: writes go on until the measure sees the store full.
    const full = await until(
      async () => {
        const res = await http(
          server.baseUrl,
          'POST',
          '/assets/create',
          textSeed(`${big}${ids.length}`),
          bearer(frank),
        );
        if (res.status === 200) ids.push((res.json as { id: string }).id);
        return res;
      },
      (res) => res.status !== 200,
      45_000,
    );
    expect([ids.length >= 2, full.status]).toEqual([true, 413]);
    expectError(full, 413, new RegExp(`your store is full: .* MB of a ${QUOTA_MB} MB quota`));
    // Its body was never read: the connection ends with the answer (a next request on it would be read from that body).
    expect(full.headers.get('connection')).toBe('close');
    expect((await http(server.baseUrl, 'GET', '/assets', undefined, bearer(frank))).status).toBe(200);
    expect((await http(server.baseUrl, 'POST', '/assets/search', { query: 'x' }, bearer(frank))).status).toBe(200);
    // MCP's saving tools answer the same refusal; its reading tools go on.
    const before = (await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(frank))).json;
    const client = await mcpClient(server, bearer(frank));
    try {
      const saved = await client.callTool({ name: 'save_snippet', arguments: { content: 'const overQuota = 1;' } });
      expect([(saved as CallToolResult).isError, textOf(saved)]).toEqual([
        true,
        expect.stringMatching(/your store is full/),
      ]);
      const memory = await client.callTool({
        name: 'create_pieces_memory',
        arguments: { summary_description: 'full', summary: 'a memory past the quota' },
      });
      expect((memory as CallToolResult).isError).toBe(true);
      expect((await client.callTool({ name: 'search_snippets', arguments: { query: 'x' } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect((await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, bearer(frank))).json).toEqual(before);
    expect((await http(server.baseUrl, 'POST', `/assets/${ids[0]}/delete`, undefined, bearer(frank))).status).toBe(200);
    // Another user's store is not theirs to fill.
    expect(
      (await http(server.baseUrl, 'POST', '/assets/create', textSeed('const mine = 1;'), bearer(admin))).status,
    ).toBe(200);
  }, 90_000);
});

describe('a team deployment under memory pressure', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TROVE_MAX_RSS_MB: '1' });
  });
  afterAll(() => server.close());

  it("refuses a team store's requests with 503 + Retry-After by the process's own overload guard", async () => {
    await addUser(server, 'first', true);
    const second = await addUser(server, 'second');
    await new Promise((r) => setTimeout(r, 500)); // the first samples
    for (const token of [second, second]) {
      const res = await http(server.baseUrl, 'GET', '/assets', undefined, bearer(token));
      expectError(res, 503, /overloaded \(rssBytes\)/);
      expect(res.headers.get('retry-after')).toBe('5');
    }
  });
});
