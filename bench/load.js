// Mixed traffic against the built server (dist): reads, creates, searches and change streams at
// once. Reports zero-5xx, stream loss (every acknowledged create must reach every subscriber),
// latency percentiles per kind, RSS (idle before, peak during, idle after) and startup time.
//   npm run build && node bench/load.js
// Env: LOAD_SECONDS (60), LOAD_CONNECTIONS (100), LOAD_SUBSCRIBERS (20), LOAD_PRELOAD (1000), DATABASE_URL (PostgreSQL instead of SQLite).
const autocannon = require('autocannon');
const { WebSocket: WsClient } = require('ws');
const { spawn } = require('node:child_process');
const { NPM_START_FLAGS } = require('./lib/processes');
const { percentile } = require('./lib/stats');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);
const SUBSCRIBERS = Number(process.env.LOAD_SUBSCRIBERS ?? 20);
const PRELOAD = Number(process.env.LOAD_PRELOAD ?? 1000);
const PORT = 39397;
const base = `http://127.0.0.1:${PORT}`;
const root = join(__dirname, '..');

const WORDS = [
  'fetch',
  'user',
  'parse',
  'config',
  'render',
  'socket',
  'stream',
  'cache',
  'token',
  'query',
  'widget',
  'retry',
];
const word = (i) => WORDS[i % WORDS.length];
const snippet = (i) =>
  `export async function ${word(i)}${word(i * 7 + 3)}${i}(input: string): Promise<string> {\n  const value = await ${word(i + 1)}(input);\n  return value.trim();\n}\n`;
const seed = (i) =>
  JSON.stringify({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: snippet(i) } } } } });

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function startServer(dataDir) {
  const started = Date.now();
  const child = spawn(process.execPath, [...NPM_START_FLAGS, 'dist/src/main.js'], {
    // as npm start runs it
    cwd: root,
    env: {
      ...process.env,
      TROVE_PORT_FILE: 'off',
      PORT: String(PORT),
      TROVE_DATA_DIR: dataDir,
      TROVE_LOG_LEVEL: 'warn',
      TROVE_RATE_LIMIT: '0',
    },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      if ((await fetch(`${base}/.well-known/health`)).ok) return { child, startupMs: Date.now() - started };
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-load-'));
  const { child, startupMs } = await startServer(dataDir);
  try {
    await new Promise((r) => setTimeout(r, 3000));
    const idleBefore = rssMb(child.pid);

    const ids = [];
    for (let i = 0; i < PRELOAD; i++) {
      const res = await fetch(`${base}/assets/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: seed(i),
      });
      ids.push((await res.json()).id);
    }

    // Subscribers: every asset id announced on the identifier stream.
    const subscribers = await Promise.all(
      Array.from(
        { length: SUBSCRIBERS },
        () =>
          new Promise((resolve, reject) => {
            const seen = new Set();
            const socket = new WsClient(`ws://127.0.0.1:${PORT}/assets/stream/identifiers`);
            socket.on('message', (data) => {
              for (const item of JSON.parse(data.toString()).iterable) seen.add(item.asset.id);
            });
            socket.once('open', () => resolve({ socket, seen }));
            socket.once('error', reject);
          }),
      ),
    );

    const created = [];
    const latencies = { read: [], search: [], create: [] };
    const statuses = new Map();
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid))), 250);
    let n = PRELOAD;
    const result = await new Promise((resolve, reject) => {
      const instance = autocannon(
        {
          url: base,
          connections: CONNECTIONS,
          duration: SECONDS,
          requests: [
            {
              setupRequest: (req, context) => {
                const r = Math.random();
                context.kind = r < 0.6 ? 'read' : r < 0.8 ? 'search' : 'create';
                context.sent = process.hrtime.bigint();
                if (context.kind === 'read')
                  return { ...req, method: 'GET', path: `/asset/${ids[Math.floor(Math.random() * ids.length)]}` };
                if (context.kind === 'search')
                  return {
                    ...req,
                    method: 'GET',
                    path: `/assets/search?query=${word(Math.floor(Math.random() * 100))}`,
                  };
                return {
                  ...req,
                  method: 'POST',
                  path: '/assets/create',
                  headers: { 'content-type': 'application/json' },
                  body: seed(n++),
                };
              },
              onResponse: (status, body, context) => {
                statuses.set(status, (statuses.get(status) ?? 0) + 1);
                latencies[context.kind].push(Number(process.hrtime.bigint() - context.sent) / 1e6);
                if (context.kind === 'create' && status === 200) created.push(JSON.parse(body).id);
              },
            },
          ],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      void instance;
    });
    clearInterval(sampler);

    // Let the streams deliver what is in flight, then count what each subscriber missed.
    const deadline = Date.now() + 10_000;
    const missing = () => subscribers.reduce((sum, s) => sum + created.filter((id) => !s.seen.has(id)).length, 0);
    while (missing() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lost = missing();
    subscribers.forEach((s) => s.socket.close());

    await new Promise((r) => setTimeout(r, 5000));
    const idleAfter = rssMb(child.pid);
    await fetch(`${base}/models/unload`, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 5000));
    const afterUnload = rssMb(child.pid);
    const serverErrors = [...statuses].filter(([s]) => s >= 500).reduce((sum, [, c]) => sum + c, 0);

    console.log(
      `\nMixed load: ${CONNECTIONS} connections, ${SECONDS} s, ${SUBSCRIBERS} stream subscribers, ${PRELOAD} assets preloaded (${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'})\n`,
    );
    console.log('| kind | requests | p50 ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    for (const [kind, list] of Object.entries(latencies)) {
      const sorted = list.sort((a, b) => a - b);
      console.log(
        `| ${kind} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} |`,
      );
    }
    console.log(
      `\nthroughput ${(result.requests.total / SECONDS).toFixed(0)} req/s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; 5xx: ${serverErrors}; socket errors: ${result.errors}, timeouts: ${result.timeouts}`,
    );
    console.log(`stream: ${created.length} creates x ${SUBSCRIBERS} subscribers, lost frames: ${lost}`);
    console.log(
      `RSS: idle at start ${idleBefore.toFixed(0)} MB, peak under load ${peakRss.toFixed(0)} MB, idle after ${idleAfter.toFixed(0)} MB, after POST /models/unload ${afterUnload.toFixed(0)} MB; startup ${startupMs} ms`,
    );
    process.exitCode = serverErrors || lost ? 1 : 0;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
