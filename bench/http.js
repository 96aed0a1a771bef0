// Trove vs a raw Fastify + sqlite3 server (bench/raw-server.js), same machine, same run.
//   npm run bench            (builds first; ~1 minute; prints a Markdown table)
// Env: BENCH_SECONDS (default 10 per server and operation), BENCH_ROUNDS (default 5),
// BENCH_CONNECTIONS (default 50), BENCH_PRELOAD (default 1000).
//
// The two servers are measured in turns: each operation runs BENCH_ROUNDS slices of
// BENCH_SECONDS / BENCH_ROUNDS seconds per server, raw and Trove alternating. This machine's
// pace drifts by tens of percent within minutes; one long run each would compare the servers
// at different paces. Throughput is requests over time summed across the slices; p99 is taken
// over every response's latency. Trove runs as `npm start` runs it (its Node flags, built code).
const autocannon = require('autocannon');
const { startProcess, startTrove, untilIdle } = require('./lib/processes');
const { percentile } = require('./lib/stats');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
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
    const res = await fetch(`${base}/assets/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: seed,
    });
    ids.push((await res.json()).id);
  }
  return ids;
}

/** One slice of load; every response's latency is appended to `latencies`. */
function slice(url, options, latencies) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: SECONDS / ROUNDS, ...options },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx || result.errors)
          return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        resolve(result);
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

/** The operation on every server in turns: { name: { rps, p99 } }. */
async function compare(servers, options) {
  const totals = Object.fromEntries(servers.map((s) => [s.name, { requests: 0, seconds: 0, latencies: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of servers) {
      const total = totals[server.name];
      const result = await slice(server.base, options(server), total.latencies);
      total.requests += result.requests.total;
      total.seconds += result.duration;
    }
  }
  return Object.fromEntries(
    Object.entries(totals).map(([name, t]) => [
      name,
      { rps: t.requests / t.seconds, p99: percentile(Float64Array.from(t.latencies).sort(), 99) },
    ]),
  );
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-'));
  const children = [];
  try {
    const raw = await startProcess(
      ['bench/raw-server.js'],
      { PORT: '39391', RAW_DB: join(dir, 'raw.db') },
      /raw server ready/,
    );
    children.push(raw);
    const trove = await startTrove({ PORT: '39392', TROVE_DATA_DIR: join(dir, 'trove'), TROVE_RATE_LIMIT: '0' });
    children.push(trove);
    const servers = [
      { name: 'raw', base: 'http://127.0.0.1:39391', child: raw },
      { name: 'trove', base: 'http://127.0.0.1:39392', child: trove },
    ];
    for (const server of servers) {
      server.ids = await preload(server.base);
      server.next = 0;
    }
    for (const server of servers) {
      const idle = await untilIdle(server.child);
      if (process.env.BENCH_VERBOSE) console.log(`${server.name}: idle ${idle} s after the preload`);
    }
    const read = await compare(servers, (server) => ({
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/asset/${server.ids[server.next++ % server.ids.length]}` }),
        },
      ],
    }));
    const create = await compare(servers, (server) => ({
      url: `${server.base}/assets/create`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: seed,
    }));
    const row = (label, results) => {
      const { raw: r, trove: t } = results;
      return `| ${label} | ${r.rps.toFixed(0)} | ${r.p99.toFixed(1)} | ${t.rps.toFixed(0)} | ${t.p99.toFixed(1)} | **${(t.rps / r.rps).toFixed(2)}x** |`;
    };
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${CONNECTIONS} connections, ` +
        `${SECONDS} s per server and operation in ${ROUNDS} alternating slices, ${PRELOAD} preloaded assets\n`,
    );
    console.log('| operation | raw req/s | raw p99 ms | Trove req/s | Trove p99 ms | Trove / raw |');
    console.log('|---|---|---|---|---|---|');
    console.log(row('GET /asset/{id}', read));
    console.log(row('POST /assets/create', create));
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
