import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { expectError, http } from './support/http';
import { TestServer, testDatabaseUrl, useTestServer } from './support/server';
import { StreamClient } from './support/ws';

/**
 * Item 7 of issue 44, operations: the Prometheus metrics (GET /metrics) and who may read them,
 * the readiness probe (GET /.well-known/ready), and the JSON request log (TROVE_LOG_FORMAT=json,
 * a real server process). Everything over a real port.
 */
const KEY = 'operations-api-key-0123456789';
const TOKEN = 'operations-metrics-token-0123456789';
const SEED = {
  type: 'SEEDED_ASSET',
  asset: { format: { fragment: { string: { raw: 'export const answer = 42;\n' } } } },
};

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The Prometheus text exposition format (0.0.4), line by line: every line is a `# HELP`, a
 * `# TYPE` or a sample `name{label="value",...} number` (a number as Go's ParseFloat reads it,
 * which is what Prometheus does: NaN and Inf in any case); anything else fails the test.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:[0-9.]+(?:e[+-]?[0-9]+)?|nan|[+-]?inf))$/i;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = sample.exec(line);
    if (!match) throw new Error(`not a line of the exposition format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(label)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { samples, types };
}

async function scrape(
  server: TestServer,
  headers: Record<string, string> = {},
): Promise<{ samples: Sample[]; types: Map<string, string>; text: string }> {
  const res = await http(server.baseUrl, 'GET', '/metrics', undefined, headers);
  expect(res.status).toBe(200);
  return { ...parseExposition(res.text), text: res.text };
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Scrapes until `check` holds (the gauges follow closes that the server sees a moment later). */
async function eventually(server: TestServer, check: (samples: Sample[]) => boolean, ms = 5000): Promise<Sample[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { samples } = await scrape(server);
    if (check(samples)) return samples;
    if (Date.now() > deadline) throw new Error('the metrics did not reach the expected state');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createAsset(server: TestServer, headers: Record<string, string> = {}): Promise<string> {
  const res = await http(server.baseUrl, 'POST', '/assets/create', SEED, headers);
  expect(res.status).toBe(200);
  return res.json.id as string;
}

describe('GET /metrics', () => {
  const server = useTestServer();

  it('answers the Prometheus text format: the counters, histogram and gauges, and the process metrics', async () => {
    const res = await http(server.baseUrl, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parseExposition(res.text);
    expect(types.get('trove_http_requests_total')).toBe('counter');
    expect(types.get('trove_http_request_duration_seconds')).toBe('histogram');
    for (const gauge of [
      'trove_stream_subscribers',
      'trove_mcp_sessions',
      'trove_open_stores',
      'trove_queue_depth',
      'trove_search_reindexing',
    ]) {
      expect([gauge, types.get(gauge)]).toEqual([gauge, 'gauge']);
    }
    // prom-client's default metrics of the process.
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(samples.some((s) => s.name === name)).toBe(true);
    }
    expect(valueOf(samples, 'trove_open_stores')).toBe(1);
    expect(valueOf(samples, 'trove_mcp_sessions')).toBe(0);
    expect(valueOf(samples, 'trove_search_reindexing')).toBe(0);
    const queues = samples.filter((s) => s.name === 'trove_queue_depth').map((s) => s.labels.queue);
    expect(queues.sort()).toEqual(
      server.config.dialect === 'sqlite'
        ? ['activities', 'database_writes', 'format_classifier']
        : ['activities', 'format_classifier'],
    );
  });

  it('counts requests by method, route template and status, never by the path', async () => {
    const id = await createAsset(server);
    const before = (await scrape(server)).samples;
    const read = { method: 'GET', route: '/asset/:asset', status: '200' };
    for (let i = 0; i < 3; i++) expect((await http(server.baseUrl, 'GET', `/asset/${id}`)).status).toBe(200);
    const missing = randomUUID();
    expect((await http(server.baseUrl, 'GET', `/asset/${missing}`)).status).toBe(404);
    expect((await http(server.baseUrl, 'GET', `/no/such/${missing}`)).status).toBe(404);
    expect((await http(server.baseUrl, 'GET', `/asset/not-a-uuid?secret=x`)).status).toBe(400);
    const { samples, text } = await scrape(server);

    expect(
      valueOf(samples, 'trove_http_requests_total', read) - valueOf(before, 'trove_http_requests_total', read),
    ).toBe(3);
    expect(valueOf(samples, 'trove_http_requests_total', { ...read, status: '404' })).toBe(1);
    expect(valueOf(samples, 'trove_http_requests_total', { ...read, status: '400' })).toBe(1);
    expect(
      valueOf(samples, 'trove_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(samples, 'trove_http_requests_total', { method: 'POST', route: '/assets/create', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    // No id, path or query text in any label.
    for (const secret of [id, missing, 'not-a-uuid', 'secret', '/no/such']) expect(text).not.toContain(secret);

    // The histogram: cumulative buckets up to +Inf, whose count is the requests', and a sum.
    const buckets = samples.filter(
      (s) =>
        s.name === 'trove_http_request_duration_seconds_bucket' &&
        s.labels.route === '/asset/:asset' &&
        s.labels.method === 'GET',
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '10',
      '30',
      '+Inf',
    ]);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
    const count = valueOf(samples, 'trove_http_request_duration_seconds_count', {
      method: 'GET',
      route: '/asset/:asset',
    });
    expect(buckets[buckets.length - 1].value).toBe(count);
    expect(count).toBeGreaterThanOrEqual(5);
    expect(
      valueOf(samples, 'trove_http_request_duration_seconds_sum', { method: 'GET', route: '/asset/:asset' }),
    ).toBeGreaterThan(0);
  });

  it('shows the stream subscribers by stream path: up while a socket is open, down once it closed', async () => {
    const path = '/assets/stream/identifiers';
    const stream = await StreamClient.open(server.baseUrl, `${path}?since=0`);
    await stream.next();
    const health = await StreamClient.open(server.baseUrl, '/.well-known/stream/health', { raw: true });
    await health.next();
    let samples = await eventually(server, (s) => valueOf(s, 'trove_stream_subscribers', { stream: path }) === 1);
    expect(valueOf(samples, 'trove_stream_subscribers', { stream: '/.well-known/stream/health' })).toBe(1);
    // The socket's own query (since=0) is not a label.
    expect(
      samples.filter((s) => s.name === 'trove_stream_subscribers').every((s) => !s.labels.stream.includes('?')),
    ).toBe(true);
    stream.socket.close();
    health.socket.close();
    await stream.closed;
    samples = await eventually(server, (s) => valueOf(s, 'trove_stream_subscribers', { stream: path }) === 0);
    expect(valueOf(samples, 'trove_stream_subscribers', { stream: '/.well-known/stream/health' })).toBe(0);
  });

  it('shows the open MCP sessions (the official MCP SDK over SSE)', async () => {
    const versions = await http(server.baseUrl, 'GET', '/model_context_protocol/schema_versions');
    const client = new McpClient({ name: 'operations-e2e', version: '1.0.0' });
    await client.connect(new SSEClientTransport(new URL(versions.json.iterable[0].entry_endpoint)));
    await client.listTools();
    await eventually(server, (s) => valueOf(s, 'trove_mcp_sessions') === 1);
    await client.close();
    await eventually(server, (s) => valueOf(s, 'trove_mcp_sessions') === 0);
  });
});

describe('GET /metrics: who may read it', () => {
  describe('with TROVE_METRICS_TOKEN in local mode', () => {
    const server = useTestServer({ TROVE_METRICS_TOKEN: TOKEN });

    it('needs the token (401 in JSON without it or with another); every other route stays open', async () => {
      const none = await http(server.baseUrl, 'GET', '/metrics');
      expectError(none, 401, /the metrics need a token/);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expectError(
        await http(server.baseUrl, 'GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}x` }),
        401,
        /not valid/,
      );
      expect((await http(server.baseUrl, 'HEAD', '/metrics')).status).toBe(401);
      // Other spellings that reach the same route are under the same rule.
      expectError(await http(server.baseUrl, 'GET', '/metrics/'), 401);
      const encoded = await http(server.baseUrl, 'GET', '/metric%73');
      expect([401, 404]).toContain(encoded.status);
      expect(encoded.text).not.toContain('trove_http_requests_total');
      expect(
        (await http(server.baseUrl, 'GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}` })).status,
      ).toBe(200);
      expect((await http(server.baseUrl, 'GET', '/metrics', undefined, { 'x-api-key': TOKEN })).status).toBe(200);
      expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);
    });
  });

  describe('with TROVE_API_KEYS and TROVE_METRICS_TOKEN', () => {
    const server = useTestServer({ TROVE_API_KEYS: KEY, TROVE_METRICS_TOKEN: TOKEN });

    it('takes the token or an API key; the token opens nothing else', async () => {
      expectError(await http(server.baseUrl, 'GET', '/metrics'), 401);
      expect(
        (await http(server.baseUrl, 'GET', '/metrics', undefined, { authorization: `Bearer ${TOKEN}` })).status,
      ).toBe(200);
      expect(
        (await http(server.baseUrl, 'GET', '/metrics', undefined, { authorization: `Bearer ${KEY}` })).status,
      ).toBe(200);
      expectError(
        await http(server.baseUrl, 'GET', '/assets', undefined, { authorization: `Bearer ${TOKEN}` }),
        401,
        /not valid/,
      );
    });
  });

  describe('with TROVE_API_KEYS only', () => {
    const server = useTestServer({ TROVE_API_KEYS: KEY });

    it('follows the rule of every route: an API key', async () => {
      expectError(await http(server.baseUrl, 'GET', '/metrics'), 401, /an API key is required/);
      expect(
        (await http(server.baseUrl, 'GET', '/metrics', undefined, { authorization: `Bearer ${KEY}` })).status,
      ).toBe(200);
    });
  });

  describe('and the rate limit', () => {
    const server = useTestServer({ TROVE_RATE_LIMIT: '3' });

    it('counts neither the metrics nor readiness: a scraper and a probe still get through when a client used up its limit', async () => {
      let limited = 0;
      for (let i = 0; i < 5; i++) if ((await http(server.baseUrl, 'GET', '/assets')).status === 429) limited++;
      expect(limited).toBe(2);
      for (let i = 0; i < 5; i++) {
        const metrics = await http(server.baseUrl, 'GET', '/metrics');
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('x-ratelimit-limit')).toBeNull();
        expect((await http(server.baseUrl, 'GET', '/.well-known/ready')).status).toBe(200);
      }
      const { samples } = await scrape(server);
      expect(valueOf(samples, 'trove_http_requests_total', { method: 'GET', route: '/assets', status: '429' })).toBe(2);
    });
  });
});

describe('GET /.well-known/ready', () => {
  const server = useTestServer({ TROVE_API_KEYS: KEY });

  it('answers 200 in JSON when the database answers; public like health (GET and HEAD)', async () => {
    const res = await http(server.baseUrl, 'GET', '/.well-known/ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ status: 'ready', storage: server.config.dialect, databaseMs: expect.any(Number) });
    expect(res.json.databaseMs).toBeLessThan(1000);
    const head = await http(server.baseUrl, 'HEAD', '/.well-known/ready');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a safe X-Request-Id, and replaces one that is not', async () => {
    const kept = await http(server.baseUrl, 'GET', '/.well-known/ready', undefined, {
      'x-request-id': 'lb-7f3a.42:abc_D',
    });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:abc_D');
    for (const bad of ['two words', 'x'.repeat(65), '<script>', 'a"b']) {
      const replaced = await http(server.baseUrl, 'GET', '/.well-known/ready', undefined, { 'x-request-id': bad });
      expect(replaced.headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
    }
  });
});

// PostgreSQL only (`npm run test:pg`): SQLite is a file this process holds open, with no server to refuse it.
if (testDatabaseUrl) {
  describe('GET /.well-known/ready on PostgreSQL, the database refusing connections', () => {
    const server = useTestServer();
    let admin: PgClient;
    let database: string;
    beforeAll(async () => {
      admin = new PgClient({ connectionString: testDatabaseUrl });
      await admin.connect();
      database = new URL(server.config.databaseUrl!).pathname.slice(1);
    });
    afterAll(async () => {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
    });

    it('answers 503 in JSON within its bound while the database refuses, 200 again once it accepts', async () => {
      expect((await http(server.baseUrl, 'GET', '/.well-known/ready')).status).toBe(200);
      // Logins refused and every open connection of the server's pool cut: the real failure.
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const down = await http(server.baseUrl, 'GET', '/.well-known/ready');
        expect(Date.now() - started).toBeLessThan(3000);
        expectError(down, 503, /not ready: the database did not answer a trivial query within 1000 ms/);
        // The driver's own words stay in the log: the route is public.
        expect(down.text).not.toMatch(/accepting connections|terminat/i);
      }
      expect((await http(server.baseUrl, 'HEAD', '/.well-known/ready')).status).toBe(503);
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        status = (await http(server.baseUrl, 'GET', '/.well-known/ready')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
    });
  });
}

// ---- TROVE_LOG_FORMAT=json: a real server process (src/main.ts, as `npm start` runs it) ----

const ROOT = join(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** src/main.ts in a process of its own (compiled on the fly), with a throwaway data directory. */
async function runServer(env: Record<string, string>, dataDir: string): Promise<Running> {
  const port = await freePort();
  let stdout = '';
  let stderr = '';
  const child = spawn(
    process.execPath,
    [require.resolve('ts-node/dist/bin-transpile.js'), join(ROOT, 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH!,
        HOME: dataDir,
        PORT: String(port),
        TROVE_DATA_DIR: join(dataDir, 'data'),
        TROVE_PORT_FILE: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (data) => (stdout += data));
  child.stderr!.on('data', (data) => (stderr += data));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, baseUrl: `http://127.0.0.1:${port}`, stdout: () => stdout, stderr: () => stderr, exited };
}

async function healthy(running: Running, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      // HEAD health: answered, but not by a request of the test's to count below.
      const res = await fetch(`${running.baseUrl}/.well-known/health`, {
        method: 'HEAD',
        signal: AbortSignal.timeout(1000),
      });
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline)
      throw new Error(`no health within ${ms} ms; output:\n${running.stdout()}${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The lines of an output, each parsed as JSON (any line that is not JSON fails the test). */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

describe('TROVE_LOG_FORMAT=json (a real server process)', () => {
  let dataDir: string;
  let running: Running | null = null;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'trove-json-log-'));
  });
  afterEach(async () => {
    running?.child.kill('SIGKILL');
    running = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one JSON line per request (id, method, route template, status, time, address, caller) and never a key, a token, a body or a query', async () => {
    const SECRET_TEXT = 'body-secret-7c1e0b';
    const SECRET_QUERY = 'query-secret-51d2aa';
    running = await runServer(
      { TROVE_LOG_FORMAT: 'json', TROVE_LOG_LEVEL: 'log', TROVE_API_KEYS: KEY, TROVE_METRICS_TOKEN: TOKEN },
      dataDir,
    );
    await healthy(running, 60_000);
    const base = running.baseUrl;
    const auth = { authorization: `Bearer ${KEY}` };
    const sent: Array<{ id: string; method: string; route: string; status: number; user: RegExp }> = [];
    const send = async (
      method: string,
      path: string,
      route: string,
      status: number,
      user: RegExp,
      headers: Record<string, string> = {},
      body?: unknown,
    ) => {
      const res = await http(base, method, path, body, headers);
      expect([method, path, res.status]).toEqual([method, path, status]);
      sent.push({ id: res.headers.get('x-request-id')!, method, route, status, user });
      return res;
    };
    const keyUser = /^key:[0-9a-f]{16}$/;
    const created = await send('POST', '/assets/create', '/assets/create', 200, keyUser, auth, {
      ...SEED,
      asset: { format: { fragment: { string: { raw: SECRET_TEXT } } } },
    });
    await send('GET', `/asset/${created.json.id}`, '/asset/:asset', 200, keyUser, {
      ...auth,
      'x-request-id': 'client-chosen-id-1',
    });
    await send('GET', `/assets/search?query=${SECRET_QUERY}`, '/assets/search', 200, keyUser, auth);
    await send('GET', '/assets', '/assets', 401, /^anonymous$/);
    await send('GET', '/assets', '/assets', 401, /^anonymous$/, { authorization: `Bearer wrong-${KEY}` });
    await send('GET', '/metrics', '/metrics', 200, /^metrics$/, { authorization: `Bearer ${TOKEN}` });
    await send('GET', `/no/such/${SECRET_QUERY}`, 'unmatched', 404, keyUser, auth);
    await send('GET', '/.well-known/ready', '/.well-known/ready', 200, /^anonymous$/);
    expect(sent[1].id).toBe('client-chosen-id-1');
    expect(new Set(sent.map((s) => s.id)).size).toBe(sent.length);

    running.child.kill('SIGTERM');
    await running.exited;
    const lines = jsonLines(running.stdout());
    // Nest's own lines are JSON lines of the same envelope (the banner among them).
    expect(lines.some((l) => l.context === 'Trove' && /Trove/.test(String(l.message)))).toBe(true);
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          level: expect.any(String),
          pid: expect.any(Number),
        }),
      );
    }
    const requests = lines.filter((l) => l.context === 'HTTP' && typeof l.requestId === 'string');
    for (const request of sent) {
      const logged = requests.filter((l) => l.requestId === request.id);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toEqual({
        time: expect.any(String),
        level: 'log',
        pid: running.child.pid,
        context: 'HTTP',
        message: `${request.method} ${request.route} ${request.status}`,
        requestId: request.id,
        method: request.method,
        route: request.route,
        status: request.status,
        durationMs: expect.any(Number),
        remoteAddress: '127.0.0.1',
        user: expect.stringMatching(request.user),
      });
    }
    const everything = running.stdout() + running.stderr();
    for (const secret of [KEY, TOKEN, SECRET_TEXT, SECRET_QUERY, created.json.id])
      expect(everything).not.toContain(secret);
  }, 90_000);

  it('names the caller "local" in local mode (loopback, no keys)', async () => {
    running = await runServer({ TROVE_LOG_FORMAT: 'json', TROVE_LOG_LEVEL: 'log' }, dataDir);
    await healthy(running, 60_000);
    const res = await http(running.baseUrl, 'GET', '/assets', undefined, { 'x-request-id': 'local-mode-request' });
    expect(res.status).toBe(200);
    running.child.kill('SIGTERM');
    await running.exited;
    const line = jsonLines(running.stdout()).find((l) => l.requestId === 'local-mode-request');
    expect(line).toEqual(expect.objectContaining({ route: '/assets', status: 200, user: 'local' }));
  }, 90_000);

  it('refuses to start on a TROVE_LOG_FORMAT it does not know, saying so (exit 78)', async () => {
    running = await runServer({ TROVE_LOG_FORMAT: 'yaml' }, dataDir);
    expect(await running.exited).toBe(78);
    expect(running.stderr()).toContain('TROVE_LOG_FORMAT must be one of text, json (got "yaml")');
  }, 60_000);
});
