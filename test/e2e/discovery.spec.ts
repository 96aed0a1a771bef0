import { Configuration, WellKnownApi } from '@pieces.app/pieces-os-client';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, piecesPortFile } from '../../src/common/config/app-config';
import { expectError, http, nodeRequest } from './support/http';
import { TestServer, startTestServer } from './support/server';
import { StreamClient } from './support/ws';

/** Where Pieces OS keeps its port file under `home` on this platform (Obsidian, Raycast and the C# SDK read it). */
const portFileIn = (home: string) => piecesPortFile(process.platform, home)!;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** HEAD /.well-known/health on a new connection each time, as the clients' port scans send it; the time to the answer. */
function headHealth(port: number): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/.well-known/health', method: 'HEAD', agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the Pieces port file (local mode)', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'trove-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('is the Pieces OS path under the home directory on a loopback address, none on another address, off or elsewhere by setting', () => {
    expect(loadConfig({ HOME: '/home/someone' }).portFile).toBe(
      process.platform === 'darwin'
        ? '/home/someone/Library/com.pieces.os/production/Config/.port.txt'
        : '/home/someone/Documents/com.pieces.os/production/Config/.port.txt',
    );
    expect(loadConfig({ HOME: '/home/someone', HOST: '0.0.0.0' }).portFile).toBeNull();
    expect(loadConfig({ HOME: '/home/someone', TROVE_PORT_FILE: 'off' }).portFile).toBeNull();
    expect(loadConfig({ HOME: '/home/someone', TROVE_PORT_FILE: '/run/trove/port' }).portFile).toBe('/run/trove/port');
    expect(() => loadConfig({ TROVE_PORT_FILE: 'relative/port.txt' })).toThrow(
      /TROVE_PORT_FILE must be off or an absolute path/,
    );
    expect(piecesPortFile('linux', '/h')).toBe('/h/Documents/com.pieces.os/production/Config/.port.txt');
    expect(piecesPortFile('darwin', '/h')).toBe('/h/Library/com.pieces.os/production/Config/.port.txt');
  });

  it('names the port once listening, stays across an in-process restart, and is removed on a clean close', async () => {
    const file = portFileIn(home);
    const server = await startTestServer({ HOME: home, TROVE_PORT_FILE: '' });
    try {
      expect(readFileSync(file, 'utf8')).toBe(String(new URL(server.baseUrl).port));
      // What Raycast and Obsidian do with it: read, trim, and connect to that port.
      const port = readFileSync(file, 'utf8').trim();
      expect(
        await new WellKnownApi(new Configuration({ basePath: `http://127.0.0.1:${port}` })).getWellKnownHealth(),
      ).toMatch(/^ok/);
      await server.restart();
      expect(readFileSync(file, 'utf8')).toBe(port);
    } finally {
      await server.close();
    }
    expect(existsSync(file)).toBe(false);
  });

  it("is not removed when it names another instance's port by the time this one closes", async () => {
    const file = portFileIn(home);
    const server = await startTestServer({ HOME: home, TROVE_PORT_FILE: '' });
    writeFileSync(file, '39333');
    await server.close();
    expect(readFileSync(file, 'utf8')).toBe('39333');
  });

  it('is not written with TROVE_PORT_FILE=off', async () => {
    const server = await startTestServer({ HOME: home, TROVE_PORT_FILE: 'off' });
    try {
      expect(existsSync(portFileIn(home))).toBe(false);
      expect(existsSync(join(home, 'Documents'))).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('HEAD /.well-known/health (the port scans: 0.1 s per port)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 200 well within the 100 ms the clients wait, on a new connection each time', async () => {
    const port = Number(new URL(server.baseUrl).port);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const { status, ms } = await headHealth(port);
      expect(status).toBe(200);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    // On a 2-core machine shared with the test runner's other workers: the median is ~1 ms.
    expect(times[Math.floor(times.length * 0.5)]).toBeLessThan(20);
    expect(times[Math.floor(times.length * 0.95)]).toBeLessThan(60);
  });
});

describe('the legacy port (TROVE_LEGACY_PORT): the same app on the port older clients use', () => {
  const KEY = 'legacy-port-key-0123456789';
  let legacyPort: number;
  let server: TestServer;
  let legacy: string;
  beforeAll(async () => {
    legacyPort = await freePort();
    server = await startTestServer({ TROVE_LEGACY_PORT: String(legacyPort) });
    legacy = `http://127.0.0.1:${legacyPort}`;
  });
  afterAll(() => server.close());

  it('is off by default, on means 5323 on Linux and 1000 elsewhere, and a bad value stops the start', () => {
    expect(loadConfig({}).legacyPort).toBeNull();
    expect(loadConfig({ TROVE_LEGACY_PORT: 'on' }).legacyPort).toBe(process.platform === 'linux' ? 5323 : 1000);
    expect(() => loadConfig({ TROVE_LEGACY_PORT: 'yes' })).toThrow(
      /TROVE_LEGACY_PORT must be on, off or a port number/,
    );
    expect(() => loadConfig({ TROVE_LEGACY_PORT: '39300' })).toThrow(/TROVE_LEGACY_PORT must differ from PORT/);
  });

  it('serves the same routes and data as the main port', async () => {
    const created = await http(server.baseUrl, 'POST', '/assets/create', {
      asset: { format: { fragment: { string: { raw: 'const servedOnBothPorts = true;' } } } },
      type: 'SEEDED_ASSET',
    });
    expect(created.status).toBe(200);
    expect((await http(legacy, 'GET', '/.well-known/health')).text).toMatch(/^ok/);
    const read = await http(legacy, 'GET', `/asset/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json.id).toBe(created.json.id);
  });

  it('opens the same WebSocket streams (first frame, then changes)', async () => {
    const stream = await StreamClient.open(legacy, '/assets/stream/identifiers');
    try {
      const first = await stream.next();
      expect(first.iterable.length).toBeGreaterThan(0);
      const created = await http(server.baseUrl, 'POST', '/assets/create', {
        asset: { format: { fragment: { string: { raw: 'const announcedOnTheLegacyPort = 1;' } } } },
      });
      expect(await stream.next()).toEqual({ iterable: [{ asset: { id: created.json.id } }] });
    } finally {
      stream.close();
    }
  });

  it('applies the same guards: Host, Origin', async () => {
    const rebinding = await nodeRequest(`${legacy}/assets`, 'GET', undefined, {
      host: `attacker.example:${legacyPort}`,
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.text).message).toMatch(/Host "attacker.example:\d+" is not allowed/);
    expectError(await http(legacy, 'GET', '/assets', undefined, { origin: 'https://evil.example' }), 403, /Origin/);
    await expect(
      StreamClient.open(legacy, '/assets/stream/identifiers', { headers: { origin: 'https://evil.example' } }),
    ).rejects.toThrow(/HTTP 403/);
  });

  it('applies the API keys of a deployment to it too, and closes with the app', async () => {
    const port = await freePort();
    const keyed = await startTestServer({ TROVE_LEGACY_PORT: String(port), TROVE_API_KEYS: KEY });
    const url = `http://127.0.0.1:${port}`;
    try {
      expectError(await http(url, 'GET', '/assets'), 401, /API key/);
      expect((await http(url, 'GET', '/assets', undefined, { authorization: `Bearer ${KEY}` })).status).toBe(200);
      await keyed.restart();
      expect((await http(url, 'GET', '/.well-known/health')).status).toBe(200);
    } finally {
      await keyed.close();
    }
    await expect(fetch(`${url}/.well-known/health`)).rejects.toThrow();
  });
});

describe('CORS preflights asking for private-network access', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const preflight = (origin: string, privateNetwork: boolean) =>
    http(server.baseUrl, 'OPTIONS', '/assets/create', undefined, {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
      ...(privateNetwork ? { 'access-control-request-private-network': 'true' } : {}),
    });

  it('get Access-Control-Allow-Private-Network: true from an allowed origin (a webview, Obsidian), and only when they ask', async () => {
    for (const origin of ['http://localhost:5173', 'vscode-webview://abc123', 'app://obsidian.md']) {
      const res = await preflight(origin, true);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-private-network')).toBe('true');
    }
    expect(
      (await preflight('http://localhost:5173', false)).headers.get('access-control-allow-private-network'),
    ).toBeNull();
  });

  it('get neither CORS nor private-network headers from another origin', async () => {
    const res = await preflight('https://evil.example', true);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-private-network')).toBeNull();
  });

  it("lets Obsidian's own origin (app://obsidian.md) call the API and open streams", async () => {
    const res = await http(server.baseUrl, 'GET', '/user', undefined, { origin: 'app://obsidian.md' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('app://obsidian.md');
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', {
      headers: { origin: 'app://obsidian.md' },
    });
    expect(await stream.next()).toEqual({ iterable: expect.any(Array) });
    stream.close();
  });
});
