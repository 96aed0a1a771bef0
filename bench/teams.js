// A team deployment at scale (docs/TEAMS.md, docs/PERFORMANCE.md): an active user's read and
// search latency with 1 user against 1,000, and what each open store costs in memory.
//   npm run build && node bench/teams.js                 (SQLite, one instance per deployment)
//   DATABASE_URL=postgres://... node bench/teams.js      (PostgreSQL, two instances per deployment)
// Two deployments run side by side, each in its own processes and data directory (or database):
// one whose only team user is the active user, and one with TEAMS_USERS users in its directory and
// TEAMS_OPEN other users' stores open. The active user's requests alternate between the two
// (ABBA), so that what else the machine does at a moment falls on both alike: the p99 ratio is
// the figure, paired. Env: TEAMS_USERS (1000), TEAMS_OPEN (other users' stores opened, default
// 100), TEAMS_READS (2000), TEAMS_SEARCHES (500). Each server runs as `npm start` does (rate limit
// and overload guards off), in its own process.
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { loadConfig } = require('../dist/src/common/config/app-config');
const { ControlStore } = require('../dist/src/teams/control-store');

const USERS = Number(process.env.TEAMS_USERS ?? 1000);
const OPEN = Number(process.env.TEAMS_OPEN ?? 100);
const READS = Number(process.env.TEAMS_READS ?? 2000);
const SEARCHES = Number(process.env.TEAMS_SEARCHES ?? 500);
const PG = process.env.DATABASE_URL ?? null;

const env = (deployment, extra) => ({
  ...process.env,
  TROVE_DATA_DIR: deployment.dir,
  DATABASE_URL: deployment.url ?? '',
  TROVE_PORT_FILE: 'off',
  TROVE_RATE_LIMIT: '0',
  TROVE_RATE_LIMIT_QGPT: '0',
  TROVE_LOG_LEVEL: 'warn',
  TROVE_MAX_OPEN_STORES: String(OPEN + 10),
  TROVE_STORE_IDLE_SECONDS: '3600',
  // The overload guards measure the machine, not the store count: off, as a bench must see every answer.
  TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
  TROVE_MAX_RSS_MB: '0',
  ...extra,
});

function start(deployment, port) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=4', 'dist/src/main.js'], {
      cwd: join(__dirname, '..'),
      env: env(deployment, { PORT: String(port), TROVE_LOG_LEVEL: 'log' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const ready = (d) => {
      out += d;
      if (!child.ready && /Trove \d|listening/.test(out)) {
        child.ready = true;
        resolve(child);
      }
    };
    child.stdout.on('data', ready);
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => !child.ready && reject(new Error(`exited ${code}: ${out}`)));
  });
}

/** A PostgreSQL database of its own for one deployment (made empty, dropped at the end). */
async function database(name) {
  const admin = new Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG);
  url.pathname = `/${name}`;
  return url.toString();
}
async function dropDatabase(name) {
  const admin = new Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const rssOf = (pid) => {
  const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
};

async function call(base, token, method, path, body) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - started, json: text ? JSON.parse(text) : null };
}

const seed = (i) => ({
  type: 'SEEDED_ASSET',
  asset: {
    format: {
      fragment: {
        string: {
          raw: `export async function fetchUser${i}(id: string) {\n  return fetch(\`/api/users/\${id}?v=${i}\`);\n}`,
        },
      },
    },
  },
});

/**
 * The active user's latencies on both deployments, paired: each read (of one of 200 snippets in
 * turn) and each search goes to one deployment and then the other, the order alternating.
 */
async function measure(deployments) {
  const out = deployments.map(() => ({ reads: [], searches: [] }));
  const both = async (i, request) => {
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const d of order) {
      const { bases, token, ids } = deployments[d];
      out[d][request.kind].push((await request.send(bases[i % bases.length], token, ids)).ms);
    }
  };
  for (let i = 0; i < READS; i++)
    await both(i, {
      kind: 'reads',
      send: (base, token, ids) => call(base, token, 'GET', `/asset/${ids[i % ids.length]}`),
    });
  for (let i = 0; i < SEARCHES; i++)
    await both(i, {
      kind: 'searches',
      send: (base, token) => call(base, token, 'POST', '/assets/search', { query: `fetchUser${i % 200}` }),
    });
  return out.map((o) => ({ read: ms(o.reads), search: ms(o.searches) }));
}

/** A deployment: its directory (admin and the active user, with 200 snippets) and its servers. */
async function deploy(name, ports) {
  const deployment = {
    name,
    dir: mkdtempSync(join(tmpdir(), `trove-teams-${name}-`)),
    url: PG ? await database(`trove_bench_${name}`) : null,
  };
  deployment.control = await ControlStore.open(loadConfig(env(deployment, {})));
  await deployment.control.addUser('admin', { admin: true });
  deployment.servers = [];
  for (const port of ports) deployment.servers.push(await start(deployment, port));
  deployment.bases = ports.map((port) => `http://127.0.0.1:${port}`);
  // The active user is the second user: a team store, not the process's own.
  deployment.token = (await deployment.control.addUser('active-team-user')).token;
  deployment.ids = [];
  for (let i = 0; i < 200; i++)
    deployment.ids.push((await call(deployment.bases[0], deployment.token, 'POST', '/assets/create', seed(i))).json.id);
  return deployment;
}

async function close(deployment) {
  for (const server of deployment.servers ?? []) server.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await deployment.control?.close();
  if (deployment.url) await dropDatabase(`trove_bench_${deployment.name}`);
  rmSync(deployment.dir, { recursive: true, force: true });
}

async function main() {
  const instances = PG ? 2 : 1;
  const deployments = [];
  try {
    deployments.push(await deploy('alone', [39370, 39371].slice(0, instances)));
    deployments.push(await deploy('crowded', [39372, 39373].slice(0, instances)));
    const [, crowded] = deployments;

    const tokens = [];
    const madeAt = performance.now();
    for (let i = 2; i < USERS; i++) tokens.push((await crowded.control.addUser(`user${i}`)).token);
    const directoryMs = performance.now() - madeAt;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the servers poll the directory every second
    const before = crowded.servers.map((s) => rssOf(s.pid));
    const opens = [];
    for (let i = 0; i < OPEN; i++)
      opens.push((await call(crowded.bases[i % crowded.bases.length], tokens[i], 'GET', '/assets/identifiers')).ms);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = crowded.servers.map((s) => rssOf(s.pid));
    const growth = after.reduce((n, r, i) => n + r - before[i], 0) / OPEN;

    await measure(deployments); // warm-up
    const [alone, busy] = await measure(deployments);

    const row = (label, m) =>
      `| ${label} | ${m.read.p50.toFixed(2)} | ${m.read.p99.toFixed(2)} | ${m.search.p50.toFixed(2)} | ${m.search.p99.toFixed(2)} |`;
    console.log(
      `\n${PG ? 'PostgreSQL, two instances' : 'SQLite, one instance'} per deployment: ${USERS} users (${directoryMs.toFixed(0)} ms to add ${tokens.length}), ${OPEN} other stores opened`,
    );
    console.log(
      `opening a new store (first request): p50 ${ms(opens).p50.toFixed(0)} ms, p99 ${ms(opens).p99.toFixed(0)} ms`,
    );
    console.log(
      `RSS per open store: ${growth.toFixed(1)} MB (before ${before.map((r) => r.toFixed(0)).join('+')} MB, after ${after.map((r) => r.toFixed(0)).join('+')} MB)`,
    );
    console.log('| directory | read p50 ms | read p99 ms | search p50 ms | search p99 ms |\n|---|---|---|---|---|');
    console.log(row('1 team user', alone));
    console.log(row(`${USERS} users, ${OPEN} stores open`, busy));
    console.log(
      `ratio (1,000 / 1): read p50 ${(busy.read.p50 / alone.read.p50).toFixed(2)}, p99 ${(busy.read.p99 / alone.read.p99).toFixed(2)}; ` +
        `search p50 ${(busy.search.p50 / alone.search.p50).toFixed(2)}, p99 ${(busy.search.p99 / alone.search.p99).toFixed(2)}`,
    );
  } finally {
    for (const deployment of deployments) await close(deployment);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
