import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AssetsApi, Configuration } from '@pieces.app/pieces-os-client';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import { OutboundHttp } from '../../src/common/net/outbound-http';
import { createApp } from '../../src/bootstrap';
import { expectError, http, nodeRequest, rawResponse, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { StreamClient } from './support/ws';
import { TestServer, startTestServer, testConfig } from './support/server';

const KEY = 'trove-test-key-0123456789';
const OTHER_KEY = 'trove-other-key-9876543210';
const WRITTEN = ['assets', 'formats', 'applications'];

/** A nodeRequest result as the shape expectError checks. */
const raw = (r: { status: number; headers: Record<string, string>; text: string }) =>
  rawResponse(r.status, r.headers, r.text);

describe('authentication with API keys', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ TROVE_API_KEYS: `${KEY},${OTHER_KEY}` });
  });
  afterAll(() => server.close());

  it('health stays public; everything else needs a key (401 with WWW-Authenticate)', async () => {
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/assets'],
      ['GET', '/.well-known/version'],
      ['POST', '/assets/create'],
      ['GET', '/docs-json'],
      ['GET', '/no/such/route'],
    ]) {
      const res = await http(server.baseUrl, method, path);
      expectError(res, 401, /API key is required/);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('question, relevance and the qgpt stream answer 401 for a wrong key', async () => {
    for (const path of ['/qgpt/question', '/qgpt/relevance']) {
      expectError(
        await http(server.baseUrl, 'POST', path, {}, { authorization: 'Bearer not-the-key-at-all' }),
        401,
        /not valid/,
      );
    }
    const upgrade = await nodeRequest(`${server.baseUrl}/qgpt/stream`, 'GET', undefined, {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'x-api-key': 'wrong-key-wrong-key',
    });
    expect(upgrade.status).toBe(401);
  });

  it('WebSocket upgrades need the key too (401), and stream with it', async () => {
    await expect(StreamClient.open(server.baseUrl, '/assets/stream/identifiers')).rejects.toThrow(/HTTP 401/);
    await expect(
      StreamClient.open(server.baseUrl, '/assets/stream/identifiers', {
        headers: { 'x-api-key': 'wrong-key-wrong-key' },
      }),
    ).rejects.toThrow(/HTTP 401/);
    await expect(
      StreamClient.open(server.baseUrl, '/assets/stream/identifiers', { headers: { host: 'attacker.example' } }),
    ).rejects.toThrow(/HTTP 403/);
    const stream = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(await stream.next()).toEqual({ iterable: expect.any(Array) });
    stream.socket.close();
  });

  it('accepts Bearer and X-API-Key, through the SDK too; a refused create writes nothing', async () => {
    const before = await server.counts(WRITTEN);
    const anonymous = new AssetsApi(server.sdk);
    expect(await statusOf(anonymous.assetsCreateNewAsset({ seed: textSeed('const refused = 1;') }))).toBe(401);
    const wrong = new AssetsApi(
      new Configuration({ basePath: server.baseUrl, headers: { Authorization: `Bearer ${KEY}x` } }),
    );
    expect(await statusOf(wrong.assetsCreateNewAsset({ seed: textSeed('const refused = 2;') }))).toBe(401);
    expect(await server.counts(WRITTEN)).toBe(before);

    const bearer = new AssetsApi(
      new Configuration({ basePath: server.baseUrl, headers: { Authorization: `Bearer ${KEY}` } }),
    );
    const created = await bearer.assetsCreateNewAsset({ seed: textSeed('const accepted = 1;') });
    expect(created.id).toBeTruthy();
    const viaHeader = await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, { 'x-api-key': OTHER_KEY });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.json.iterable.map((i: { id: string }) => i.id)).toContain(created.id);
  });
});

describe('local-first guards: Host, Origin, content types', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('refuses a Host that is not ours (DNS rebinding) and writes nothing', async () => {
    const before = await server.counts(WRITTEN);
    const body = JSON.stringify(textSeed('const rebinding = 1;'));
    const refused = await nodeRequest(`${server.baseUrl}/assets/create`, 'POST', body, {
      host: 'attacker.example:39300',
    });
    expectError(raw(refused), 403, /Host .{0,2}attacker\.example:39300.{0,2} is not allowed/);
    expect(await server.counts(WRITTEN)).toBe(before);
    const port = new URL(server.baseUrl).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await nodeRequest(`${server.baseUrl}/assets/identifiers`, 'GET', undefined, { host })).status).toBe(200);
    }
  });

  it('TROVE_ALLOWED_HOSTS names the hosts of a deployment (* accepts any)', async () => {
    const named = await startTestServer({ TROVE_ALLOWED_HOSTS: 'trove.internal' });
    const any = await startTestServer({ TROVE_ALLOWED_HOSTS: '*' });
    try {
      expect((await nodeRequest(`${named.baseUrl}/assets`, 'GET', undefined, { host: 'trove.internal' })).status).toBe(
        200,
      );
      expect((await nodeRequest(`${named.baseUrl}/assets`, 'GET', undefined, { host: '127.0.0.1' })).status).toBe(403);
      expect((await nodeRequest(`${any.baseUrl}/assets`, 'GET', undefined, { host: 'whatever.example' })).status).toBe(
        200,
      );
    } finally {
      await named.close();
      await any.close();
    }
  });

  it('refuses a browser request from an origin that is not allowed, before it runs', async () => {
    const before = await server.counts(WRITTEN);
    const body = JSON.stringify(textSeed('const csrf = 1;'));
    const refused = await nodeRequest(`${server.baseUrl}/assets/create`, 'POST', body, {
      origin: 'https://evil.example',
    });
    expectError(raw(refused), 403, /Origin .{0,2}https:\/\/evil\.example.{0,2} is not allowed/);
    expectError(raw(await nodeRequest(`${server.baseUrl}/assets`, 'GET', undefined, { origin: 'null' })), 403, /null/);
    expect(await server.counts(WRITTEN)).toBe(before);
    const allowed = await nodeRequest(`${server.baseUrl}/assets/create`, 'POST', body, {
      origin: 'http://localhost:5173',
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('a text/plain body (what a cross-site form can send) is refused on JSON routes', async () => {
    const before = await server.counts(WRITTEN);
    const res = await http(server.baseUrl, 'POST', '/assets/create', JSON.stringify(textSeed('const form = 1;')), {
      'content-type': 'text/plain',
    });
    expectError(res, 415, /application\/json/);
    expect(await server.counts(WRITTEN)).toBe(before);
  });
});

describe('limits', () => {
  it('rate limits per client with 429 + Retry-After; each API key has its own budget', async () => {
    const server = await startTestServer({ TROVE_RATE_LIMIT: '5', TROVE_API_KEYS: `${KEY},${OTHER_KEY}` });
    try {
      const as = (key: string) => ({ authorization: `Bearer ${key}` });
      for (let i = 0; i < 5; i++)
        expect((await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(KEY))).status).toBe(200);
      const limited = await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(KEY));
      expectError(limited, 429, /rate limit of 5 requests per minute/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(OTHER_KEY))).status).toBe(200);
      // The health route is not counted (port scans, liveness probes, the warm-up at boot), and a
      // limited client still learns the server is up.
      for (let i = 0; i < 8; i++)
        expect((await http(server.baseUrl, 'GET', '/.well-known/health', undefined, as(KEY))).status).toBe(200);
      expectError(await http(server.baseUrl, 'GET', '/assets/identifiers', undefined, as(KEY)), 429);
    } finally {
      await server.close();
    }
  });

  it('question answering has its own, lower limit', async () => {
    const server = await startTestServer({ TROVE_RATE_LIMIT_QGPT: '2', TROVE_RATE_LIMIT: '0' });
    try {
      for (let i = 0; i < 2; i++)
        expect((await http(server.baseUrl, 'POST', '/qgpt/question', {})).status).not.toBe(429);
      expectError(await http(server.baseUrl, 'POST', '/qgpt/question', {}), 429, /rate limit of 2/);
      expectError(await http(server.baseUrl, 'POST', '/qgpt/relevance', {}), 429);
      // the other requests have no limit here (TROVE_RATE_LIMIT=0): neither counted nor announced
      const unlimited = await http(server.baseUrl, 'GET', '/assets');
      expect(unlimited.status).toBe(200);
      expect(unlimited.headers.get('x-ratelimit-limit')).toBeNull();
      // The qgpt stream's upgrades (which never reach the HTTP router) have the same limit.
      for (let i = 0; i < 2; i++) (await StreamClient.open(server.baseUrl, '/qgpt/stream')).socket.close();
      await expect(StreamClient.open(server.baseUrl, '/qgpt/stream')).rejects.toThrow(/HTTP 429/);
    } finally {
      await server.close();
    }
  });

  it('answers 503 + Retry-After while the event loop lags, then recovers', async () => {
    const server = await startTestServer({ TROVE_MAX_EVENT_LOOP_DELAY_MS: '50' });
    try {
      expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);
      // Sustained lag: this process's event loop (the server's too) is blocked 150 ms at a time
      // for 1.5 s, and a request is made in the middle of it.
      const lag = (async () => {
        const end = Date.now() + 1500;
        while (Date.now() < end) {
          const until = Date.now() + 150;
          while (Date.now() < until);
          await new Promise((r) => setImmediate(r));
        }
      })();
      await new Promise((r) => setTimeout(r, 700));
      const overloaded = await http(server.baseUrl, 'GET', '/assets');
      await lag;
      expectError(overloaded, 503, /overloaded/);
      expect(overloaded.headers.get('retry-after')).toBe('5');
      let status = 503;
      for (let i = 0; i < 40 && status === 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await http(server.baseUrl, 'GET', '/assets')).status;
      }
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('does not count its own boot as overload: a fresh instance answers its first requests', async () => {
    // The boot's synchronous work lags the loop once before the app is ready (here: 600 ms, far
    // past the 50 ms bound); a client connecting as soon as the port opens must not get a 503.
    const app = await createApp(
      testConfig({ TROVE_MAX_EVENT_LOOP_DELAY_MS: '50', TROVE_DATA_DIR: mkdtempSync(join(tmpdir(), 'trove-boot-')) }),
    );
    try {
      const until = Date.now() + 600;
      while (Date.now() < until);
      await app.listen(0, '127.0.0.1');
      const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      expect((await http(base, 'GET', '/assets')).status).toBe(200);
      expect((await http(base, 'GET', '/.well-known/health')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('answers 503 + Retry-After while memory is past TROVE_MAX_RSS_MB', async () => {
    const server = await startTestServer({ TROVE_MAX_RSS_MB: '1' });
    try {
      await new Promise((r) => setTimeout(r, 500)); // the first samples
      const res = await http(server.baseUrl, 'GET', '/assets');
      expectError(res, 503, /overloaded \(rssBytes\)/);
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await server.close();
    }
  });

  describe('bounds on bodies and paths', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        TROVE_MAX_ARRAY_LENGTH: '100',
        TROVE_MAX_STRING_LENGTH: '5000',
        TROVE_MAX_URL_LENGTH: '512',
      });
    });
    afterAll(() => server.close());

    const deep = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

    it.each([
      ['nesting deeper than 64 levels', () => deep(70), 400, /nested deeper than 64/],
      [
        'an array longer than the bound',
        () =>
          JSON.stringify({ asset: { metadata: { tags: Array.from({ length: 101 }, (_, i) => ({ text: `t${i}` })) } } }),
        413,
        /more than 100 items/,
      ],
      [
        'a string longer than the bound',
        () => JSON.stringify(textSeed('x'.repeat(5001))),
        413,
        /longer than 5000 characters/,
      ],
      ['a key longer than the bound', () => JSON.stringify({ ['k'.repeat(5001)]: 1 }), 413, /key is longer/],
      [
        'a NUL character in a string (PostgreSQL text cannot hold it)',
        () => JSON.stringify(textSeed('a\u0000b')),
        400,
        /NUL/,
      ],
      [
        'a lone surrogate escape in a string (no UTF-8 form: it would be silently replaced)',
        () => JSON.stringify(textSeed('x')).replace('"x"', '"a\\ud800b"'),
        400,
        /lone surrogate/,
      ],
      ['a lone low surrogate escape in a key', () => '{"\\udc00":1}', 400, /lone surrogate/],
      [
        'bytes that are not UTF-8',
        () =>
          Buffer.concat([
            Buffer.from('{"type":"SEEDED_ASSET","asset":{"format":{"fragment":{"string":{"raw":"a'),
            Buffer.from([0xc3, 0x28]),
            Buffer.from('"}}}}}'),
          ]),
        400,
        /not valid UTF-8/,
      ],
    ])('refuses %s and writes nothing', async (_what, body, status, message) => {
      const before = await server.counts(WRITTEN);
      expectError(await http(server.baseUrl, 'POST', '/assets/create', body()), status, message);
      expect(await server.counts(WRITTEN)).toBe(before);
    });

    it('keeps a well-formed astral character (a surrogate pair) exactly', async () => {
      const res = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        JSON.stringify(textSeed('x')).replace('"x"', '"smile \\ud83d\\ude00 ok"'),
      );
      expect(res.status).toBe(200);
      const read = await http(server.baseUrl, 'GET', `/asset/${res.json.id}`);
      expect(read.json.formats.iterable[0].fragment.string.raw).toBe('smile \u{1F600} ok');
    });

    it('refuses NUL in the request target', async () => {
      expectError(await http(server.baseUrl, 'GET', '/assets/search?query=a%00b'), 400, /NUL/);
    });

    it('refuses a request target longer than the bound with 414', async () => {
      expectError(await http(server.baseUrl, 'GET', `/assets?x=${'a'.repeat(600)}`), 414, /longer than 512/);
      expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);
    });

    it('refuses dot segments, which would otherwise alias another route', async () => {
      for (const path of ['/assets/.', '/assets/..', '/asset/%2e%2e/formats', '/asset/%2E/formats']) {
        expectError(raw(await nodeRequest(`${server.baseUrl}${path}`, 'GET')), 400, /segments/);
      }
    });

    it('refuses a body over TROVE_BODY_LIMIT with 413', async () => {
      const small = await startTestServer({ TROVE_BODY_LIMIT: '2048' });
      try {
        expectError(
          await http(small.baseUrl, 'POST', '/assets/create', JSON.stringify(textSeed('y'.repeat(4000)))),
          413,
        );
      } finally {
        await small.close();
      }
    });
  });

  it('cuts off a client that sends its headers too slowly', async () => {
    const server = await startTestServer({ TROVE_HEADERS_TIMEOUT_MS: '500', TROVE_REQUEST_TIMEOUT_MS: '1000' });
    try {
      const { port } = new URL(server.baseUrl);
      const started = Date.now();
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write('GET /assets HTTP/1.1\r\nHost: 127.0.0.1\r\n'),
        );
        let received = '';
        const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 200); // never finishes the headers
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => {
          clearInterval(drip);
          resolve(received);
        });
        socket.on('error', () => undefined);
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(outcome).toMatch(/^(HTTP\/1\.1 408|$)/);
      expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('server-side fetches cannot reach private addresses', () => {
  let target: Server;
  let targetPort: number;
  beforeAll(async () => {
    target = createServer((_req, res) => res.end('internal secret'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

  it('refuses loopback by address and by a name that resolves to it, at connect time', async () => {
    const server = await startTestServer();
    try {
      const outbound = server.app.get(OutboundHttp);
      for (const url of [
        `http://127.0.0.1:${targetPort}/`,
        `http://localhost:${targetPort}/`,
        `http://[::ffff:127.0.0.1]:${targetPort}/`,
      ]) {
        await expect(outbound.fetch(url)).rejects.toMatchObject({ cause: { name: 'OutboundRefusedError' } });
      }
      // A configured provider's base URL is reachable.
      outbound.allow(`http://127.0.0.1:${targetPort}`);
      expect(await (await outbound.fetch(`http://127.0.0.1:${targetPort}/`)).text()).toBe('internal secret');
    } finally {
      await server.close();
    }
  });

  it('TROVE_OUTBOUND_ALLOW lets named private hosts through', async () => {
    const server = await startTestServer({ TROVE_OUTBOUND_ALLOW: 'localhost' });
    try {
      const outbound = server.app.get(OutboundHttp);
      expect((await outbound.fetch(`http://localhost:${targetPort}/`)).status).toBe(200);
      await expect(outbound.fetch(`http://127.0.0.1:${targetPort}/`)).rejects.toMatchObject({
        cause: { name: 'OutboundRefusedError' },
      });
    } finally {
      await server.close();
    }
  });
});
