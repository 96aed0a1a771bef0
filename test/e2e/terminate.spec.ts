import { Configuration, OSApi } from '@pieces.app/pieces-os-client';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/bootstrap';
import { expectError, http, statusOf } from './support/http';
import { testConfig, useTestServer } from './support/server';
import { StreamClient } from './support/ws';
import { loadConfig, piecesPortFile } from '../../src/common/config/app-config';

const ROOT = join(__dirname, '..', '..');
const KEY = 'terminate-test-key-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function healthy(baseUrl: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/.well-known/health`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`no health within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /os/terminate in local mode: the process shuts down as on SIGINT (a real server process)', () => {
  let child: ChildProcess | null = null;
  let home: string;
  let dataDir: string;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = null;
    rmSync(home, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 204, closes its streams with 1001, removes its port file and exits with code 0', async () => {
    home = mkdtempSync(join(tmpdir(), 'trove-terminate-home-'));
    dataDir = mkdtempSync(join(tmpdir(), 'trove-terminate-data-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let output = '';
    // src/main.ts as `npm start` runs it (compiled on the fly), with a throwaway home for its port file.
    child = spawn(process.execPath, [require.resolve('ts-node/dist/bin-transpile.js'), join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: home, PORT: String(port), TROVE_DATA_DIR: dataDir, TROVE_LOG_LEVEL: 'log' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (data) => (output += data));
    child.stderr!.on('data', (data) => (output += data));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child!.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await healthy(baseUrl, 60_000);
    const portFile = piecesPortFile(process.platform, home)!;
    // The port is announced once the server has warmed up, a moment after it first answers.
    for (let i = 0; i < 100 && !existsSync(portFile); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readFileSync(portFile, 'utf8')).toBe(String(port));
    const stream = await StreamClient.open(baseUrl, '/assets/stream/identifiers');
    await stream.next();

    // As Sublime's "Close PiecesOS" and the Neovim plugin's :PiecesClosePiecesOS send it (the SDK's OSApi).
    await new OSApi(new Configuration({ basePath: baseUrl })).osTerminate();
    expect(await stream.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(existsSync(portFile)).toBe(false);
    expect(output).toMatch(/terminating \(POST \/os\/terminate\): closing the app/);
    await expect(fetch(`${baseUrl}/.well-known/health`)).rejects.toThrow();
  }, 90_000);
});

describe('POST /os/terminate on a shared Trove', () => {
  const server = useTestServer({ TROVE_API_KEYS: KEY });
  let dataDir: string;

  it('is a 403 with API keys set (no client stops a shared server), and the server goes on', async () => {
    const res = await http(server.baseUrl, 'POST', '/os/terminate', undefined, { authorization: `Bearer ${KEY}` });
    expectError(res, 403, /shared \(API keys are set\): a client cannot stop it/);
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
  });

  it('is a 403 on a non-loopback address, before anything else is checked', async () => {
    // An app configured for 0.0.0.0 (listening here on loopback only, for the test).
    dataDir = mkdtempSync(join(tmpdir(), 'trove-terminate-data-'));
    const app = await createApp(
      loadConfig({
        PATH: process.env.PATH,
        HOST: '0.0.0.0',
        PORT: '0',
        TROVE_DATA_DIR: dataDir,
        TROVE_PORT_FILE: 'off',
        TROVE_LOG_LEVEL: 'warn',
        TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
        TROVE_MAX_RSS_MB: '0',
      }),
    );
    await app.listen(0, '127.0.0.1');
    try {
      const { port } = app.getHttpServer().address() as { port: number };
      const os = new OSApi(new Configuration({ basePath: `http://127.0.0.1:${port}` }));
      expect(await statusOf(os.osTerminate())).toBe(403);
      const res = await http(`http://127.0.0.1:${port}`, 'POST', '/os/terminate');
      expectError(res, 403, /listens on 0\.0\.0\.0, not a loopback address/);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is a 503 from an app made without a terminate handler (benchmarks, scripts), in local mode', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trove-terminate-data-'));
    const app = await createApp(testConfig({ TROVE_DATA_DIR: dataDir, DATABASE_URL: '' }));
    await app.listen(0, '127.0.0.1');
    try {
      const { port } = app.getHttpServer().address() as { port: number };
      expectError(await http(`http://127.0.0.1:${port}`, 'POST', '/os/terminate'), 503, /cannot stop itself/);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
