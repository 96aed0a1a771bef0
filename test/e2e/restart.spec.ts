import { AssetApi, AssetsApi, Configuration, OSApi } from '@pieces.app/pieces-os-client';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Server as NetServer, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/bootstrap';
import { expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { testConfig, useTestServer } from './support/server';
import { StreamClient } from './support/ws';

const ROOT = join(__dirname, '..', '..');
const KEY = 'restart-test-key-0123456789';

/** Polls GET /.well-known/health until it answers 200 `ok` (connection errors and 503 while restarting are expected). */
async function healthy(baseUrl: string, ms = 10_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/.well-known/health`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200 && (await res.text()).startsWith('ok')) return Date.now() - started;
      await res.body?.cancel();
    } catch {
      // not listening (yet)
    }
    if (Date.now() - started > ms) throw new Error(`health did not answer within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `http` that reports a refused or reset connection as status 0 (a request may arrive between two apps). */
const attempt = (baseUrl: string, method: string, path: string, body?: unknown) =>
  http(baseUrl, method, path, body).catch(() => ({ status: 0, text: '', json: undefined }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shutdownListeners = () => ['SIGTERM', 'SIGINT', 'SIGHUP'].map((signal) => process.listenerCount(signal));

describe('GET /os/restart: an in-process restart (pieces restart)', () => {
  const server = useTestServer();
  let assets: AssetsApi;
  const create = (raw: string) => assets.assetsCreateNewAsset({ seed: textSeed(raw) });
  let clients: StreamClient[] = [];
  const open = async (path: string, headers?: Record<string, string>) => {
    const client = await StreamClient.open(server.baseUrl, path, { headers });
    clients.push(client);
    return client;
  };

  beforeAll(() => {
    assets = new AssetsApi(server.sdk);
  });
  afterEach(() => {
    clients.forEach((c) => c.socket.terminate());
    clients = [];
  });

  it('answers 200 text, closes the streams, comes back on the same port with the data, and announces new creates', async () => {
    const kept = await create('const keptAcrossRestart = 1;');
    const stream = await open('/assets/stream/identifiers');
    expect((await stream.next()).iterable.map((i: { asset: { id: string } }) => i.asset.id)).toContain(kept.id);
    const before = server.app;
    const listeners = shutdownListeners();

    const res = await http(server.baseUrl, 'GET', '/os/restart');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe('restarting');
    // From the answer on, health stops answering ok until the fresh app does: a client that
    // polls it (the CLI does) knows when the restart is over.
    const right = await attempt(server.baseUrl, 'GET', '/.well-known/health');
    expect(right.status === 200 ? server.app !== before : [0, 503].includes(right.status)).toBe(true);

    // The server closes the socket (1001: going away, resume elsewhere), and health answers
    // again on the same port, only once the fresh app does (503 or refused meanwhile).
    expect(await stream.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await healthy(server.baseUrl)).toBeLessThan(10_000);
    expect(server.app).not.toBe(before);
    expect(before.getHttpServer().listening).toBe(false);
    expect(server.app.getHttpServer().listening).toBe(true);
    // No process-wide leftovers: signal listeners are not added once more per restart.
    expect(shutdownListeners()).toEqual(listeners);

    const read = await http(server.baseUrl, 'GET', `/asset/${kept.id}`);
    expect(read.status).toBe(200);
    expect(read.json.formats.iterable[0].fragment.string.raw).toBe('const keptAcrossRestart = 1;');
    expect(await server.sql(`SELECT id FROM assets WHERE id = '${kept.id}'`)).toHaveLength(1); // the current app's database

    const fresh = await open('/assets/stream/identifiers');
    const first = (await fresh.next()).iterable.map((i: { asset: { id: string } }) => i.asset.id);
    expect(first).toContain(kept.id);
    const added = await create('const afterRestart = 2;');
    expect(await fresh.next()).toEqual({ iterable: [{ asset: { id: added.id } }] });
  });

  it("works through the SDK's OSApi.osRestart, and loses nothing acknowledged: creates before, during and after it, views waiting for their batch", async () => {
    const viewed = await create('viewed just before the restart');
    const asset = new AssetApi(server.sdk);
    await asset.assetSnapshot({ asset: viewed.id });
    await asset.assetSnapshot({ asset: viewed.id }); // both views wait in memory for their batch (1 s)
    // Clients writing all along: each create either fails or, once answered, must be there after the restart.
    const acknowledged: string[] = [];
    const failures = new Set<number>();
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing; i++) {
        const res = await attempt(server.baseUrl, 'POST', '/assets/create', textSeed(`const writer${n}_${i} = ${i};`));
        if (res.status === 200) acknowledged.push(res.json.id);
        else {
          failures.add(res.status);
          await sleep(5);
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await sleep(100);
    const before = server.app;

    await expect(new OSApi(server.sdk).osRestart()).resolves.toBeUndefined();
    await healthy(server.baseUrl);
    await sleep(100);
    writing = false;
    await Promise.all(writers);
    expect(server.app).not.toBe(before);

    const views = await server.sql(`SELECT id FROM activities WHERE event = 'viewed' AND asset_id = '${viewed.id}'`);
    expect(views).toHaveLength(2); // flushed by the old app's shutdown hooks
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = new Set((await server.sql<{ id: string }>('SELECT id FROM assets')).map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // Between the two apps a create is refused (0: no listener) or answered 503 (closing): never a 500.
    expect([...failures].filter((status) => status !== 0 && status !== 503)).toEqual([]);
  });

  it('two restart calls at once leave one working server (one restart, or two in a row)', async () => {
    const before = server.app;
    const listeners = shutdownListeners();
    const answers = await Promise.all([
      attempt(server.baseUrl, 'GET', '/os/restart'),
      attempt(server.baseUrl, 'GET', '/os/restart'),
    ]);
    expect(answers.map((a) => a.status)).toContain(200);
    for (const answer of answers) expect([0, 200, 503]).toContain(answer.status);

    await healthy(server.baseUrl);
    await sleep(300); // a second restart, if any, has begun by now
    await healthy(server.baseUrl);
    expect(server.app).not.toBe(before);
    expect(before.getHttpServer().listening).toBe(false);
    expect(server.app.getHttpServer().listening).toBe(true);
    expect(shutdownListeners()).toEqual(listeners);
    const created = await create('after two restarts');
    expect((await http(server.baseUrl, 'GET', `/asset/${created.id}`)).status).toBe(200);
  });

  it("refuses a request from another site's page (no Origin, Sec-Fetch-Site: cross-site) with 403, and does not restart", async () => {
    const before = server.app;
    expectError(
      await http(server.baseUrl, 'GET', '/os/restart', undefined, {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'no-cors',
      }),
      403,
    );
    expectError(await http(server.baseUrl, 'GET', '/os/restart', undefined, { origin: 'https://evil.example' }), 403);
    await sleep(300);
    expect(server.app).toBe(before);
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
  });
});

describe('GET /os/restart with API keys', () => {
  const server = useTestServer({ TROVE_API_KEYS: KEY });

  it('needs the key: 401 without it or with a wrong one, and nothing restarts; with it, a restart', async () => {
    const before = server.app;
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', {
      headers: { 'x-api-key': KEY },
    });
    await stream.next();

    const anonymous = await http(server.baseUrl, 'GET', '/os/restart');
    expectError(anonymous, 401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expectError(
      await http(server.baseUrl, 'GET', '/os/restart', undefined, { authorization: 'Bearer not-the-key-0123456789' }),
      401,
    );
    await sleep(300);
    expect(server.app).toBe(before);
    expect(stream.socket.readyState).toBe(stream.socket.OPEN);
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);

    const keyed = await http(server.baseUrl, 'GET', '/os/restart', undefined, { authorization: `Bearer ${KEY}` });
    expect(keyed.status).toBe(200);
    expect((await stream.closed).code).toBe(1001);
    await healthy(server.baseUrl);
    expect(server.app).not.toBe(before);
    expect((await http(server.baseUrl, 'GET', '/assets', undefined, { 'x-api-key': KEY })).status).toBe(200);
  });
});

describe('GET /os/restart on an app created without a restart handler', () => {
  it('answers 503 with a JSON error saying this instance cannot restart itself, and keeps serving', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trove-test-'));
    const app = await createApp(testConfig({ TROVE_DATA_DIR: dataDir, DATABASE_URL: '' }));
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as { port: number };
      const baseUrl = `http://127.0.0.1:${port}`;
      const res = await http(baseUrl, 'GET', '/os/restart');
      expectError(res, 503, /cannot restart itself/);
      const sdk = new OSApi(new Configuration({ basePath: baseUrl }));
      expect(await statusOf(sdk.osRestart())).toBe(503);
      await sleep(200);
      expect(app.getHttpServer().listening).toBe(true);
      expect((await http(baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a restart whose fresh app cannot listen (the port was taken meanwhile)', () => {
  let child: ChildProcess | null = null;
  let squatter: NetServer | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-restart-'));
  afterAll(() => {
    child?.kill('SIGKILL');
    squatter?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs the error and exits with a non-zero code, as main.ts runs it', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    let output = '';
    child = spawn(process.execPath, [require.resolve('ts-node/dist/bin-transpile.js'), join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        TROVE_PORT_FILE: 'off',
        PORT: String(port),
        TROVE_DATA_DIR: dataDir,
        TROVE_LOG_LEVEL: 'log',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (data) => (output += data));
    child.stderr!.on('data', (data) => (output += data));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    await healthy(baseUrl, 60_000);

    expect((await http(baseUrl, 'GET', '/os/restart')).status).toBe(200);
    // Take the port as soon as the old app lets it go, before the fresh app listens.
    squatter = await new Promise<NetServer>((resolve, reject) => {
      const started = Date.now();
      const tryListen = () => {
        const s = createServer();
        s.once('error', () =>
          Date.now() - started > 10_000 ? reject(new Error('the port was never released')) : setTimeout(tryListen, 2),
        );
        s.listen(port, '127.0.0.1', () => resolve(s));
      };
      tryListen();
    });
    expect(await exited).toBe(1);
    expect(output).toMatch(/restart failed, exiting: .*EADDRINUSE/);
  }, 90_000);
});
