// Trove vs a raw Fastify + sqlite3 server (bench/raw-server.js), same machine, same run.
//   npm run bench            (builds first; ~1 minute; prints a Markdown table)
// Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_PRELOAD (default 1000).
const autocannon = require('autocannon');
const { startProcess, untilIdle } = require('./lib/processes');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PRELOAD = Number(process.env.BENCH_PRELOAD ?? 1000);

const SNIPPET = [
  'export async function fetchUser(id: string): Promise<User> {',
  '  const response = await fetch(`/api/users/${id}`);',
  '  if (!response.ok) throw new Error(`HTTP ${response.status}`);',
  '  return (await response.json()) as User;',
  '}',
].join('\n');
const seed = JSON.stringify({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: SNIPPET } } } } });

async function preload(base) {
  const ids = [];
  for (let i = 0; i < PRELOAD; i++) {
    const res = await fetch(`${base}/assets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: seed });
    ids.push((await res.json()).id);
  }
  return ids;
}

function load(url, options) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function measure(base, ids) {
  let i = 0;
  const read = await load(base, {
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/asset/${ids[i++ % ids.length]}` }) }],
  });
  const create = await load(`${base}/assets/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: seed });
  for (const [name, r] of [['read', read], ['create', create]]) {
    if (r.non2xx || r.errors) throw new Error(`${base} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  }
  return { read, create };
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-'));
  const children = [];
  try {
    const raw = await startProcess(['bench/raw-server.js'], { PORT: '39391', RAW_DB: join(dir, 'raw.db') }, /raw server ready/);
    children.push(raw);
    const trove = await startProcess(['dist/src/main.js'], { PORT: '39392', TROVE_DATA_DIR: join(dir, 'trove'), TROVE_LOG_LEVEL: 'log', TROVE_RATE_LIMIT: '0' }, /listening on/);
    children.push(trove);
    const results = {};
    const servers = [['raw', 'http://127.0.0.1:39391', raw], ['trove', 'http://127.0.0.1:39392', trove]];
    for (const [name, base, child] of servers) {
      const ids = await preload(base);
      const idle = await untilIdle(child);
      if (process.env.BENCH_VERBOSE) console.log(`${name}: idle ${idle} s after the preload`);
      results[name] = await measure(base, ids);
    }
    const row = (label, key) => {
      const r = results.raw[key];
      const t = results.trove[key];
      const ratio = t.requests.average / r.requests.average;
      return `| ${label} | ${r.requests.average.toFixed(0)} | ${r.latency.p99} | ${t.requests.average.toFixed(0)} | ${t.latency.p99} | **${ratio.toFixed(2)}x** |`;
    };
    console.log(`\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${CONNECTIONS} connections, ${SECONDS} s each, ${PRELOAD} preloaded assets\n`);
    console.log('| operation | raw req/s | raw p99 ms | Trove req/s | Trove p99 ms | Trove / raw |');
    console.log('|---|---|---|---|---|---|');
    console.log(row('GET /asset/{id}', 'read'));
    console.log(row('POST /assets/create', 'create'));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
