// A team deployment at scale (docs/TEAMS.md, docs/PERFORMANCE.md): an active user's read and
// search latency with 1 user against 1,000, and what each open store costs in memory.
//   npm run build && node bench/teams.js                 (SQLite, one instance)
//   DATABASE_URL=postgres://... node bench/teams.js      (PostgreSQL, two instances on one database)
// Env: TEAMS_USERS (1000), TEAMS_OPEN (other users' stores opened, default 100), TEAMS_READS (2000),
// TEAMS_SEARCHES (500). Each server runs as `npm start` does (rate limit off), in its own process.
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

const dir = mkdtempSync(join(tmpdir(), 'trove-teams-'));
const env = (extra) => ({
  ...process.env,
  TROVE_DATA_DIR: dir,
  TROVE_PORT_FILE: 'off',
  TROVE_RATE_LIMIT: '0',
  TROVE_RATE_LIMIT_QGPT: '0',
  TROVE_LOG_LEVEL: 'warn',
  TROVE_MAX_OPEN_STORES: String(OPEN + 10),
  TROVE_STORE_IDLE_SECONDS: '3600',
  ...extra,
});

function start(port) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=4', 'dist/src/main.js'], {
      cwd: join(__dirname, '..'),
      env: env({ PORT: String(port), TROVE_LOG_LEVEL: 'log' }),
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
  asset: { format: { fragment: { string: { raw: `export async function fetchUser${i}(id: string) {\n  return fetch(\`/api/users/\${id}?v=${i}\`);\n}` } } } },
});

/** The active user's latencies: reads of one of 200 snippets in turn, and searches, on the instances in turn. */
async function measure(bases, token, ids) {
  const reads = [];
  const searches = [];
  for (let i = 0; i < READS; i++) reads.push((await call(bases[i % bases.length], token, 'GET', `/asset/${ids[i % ids.length]}`)).ms);
  for (let i = 0; i < SEARCHES; i++) searches.push((await call(bases[i % bases.length], token, 'POST', '/assets/search', { query: `fetchUser${i % 200}` })).ms);
  return { read: ms(reads), search: ms(searches) };
}

async function main() {
  if (PG) {
    const client = new Client({ connectionString: PG });
    await client.connect();
    const { rows } = await client.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'trove_users_%' OR nspname = 'trove_control'");
    if (rows.length) throw new Error(`${PG} already holds team schemas: give an empty database`);
    await client.end();
  }
  const config = loadConfig(env({ DATABASE_URL: PG ?? '' }));
  const control = await ControlStore.open(config);
  const first = await control.addUser('admin', { admin: true });
  const ports = PG ? [39370, 39371] : [39370];
  const servers = [];
  for (const port of ports) servers.push(await start(port));
  const bases = ports.map((port) => `http://127.0.0.1:${port}`);
  try {
    // The active user is the second user: a team store, not the process's own.
    const active = await control.addUser('active-team-user');
    const ids = [];
    for (let i = 0; i < 200; i++) ids.push((await call(bases[0], active.token, 'POST', '/assets/create', seed(i))).json.id);
    await measure(bases, active.token, ids); // warm-up
    const alone = await measure(bases, active.token, ids);

    const tokens = [];
    const madeAt = performance.now();
    for (let i = tokens.length + 2; i < USERS; i++) tokens.push((await control.addUser(`user${i}`)).token);
    const directoryMs = performance.now() - madeAt;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the servers poll the directory every second
    const before = servers.map((s) => rssOf(s.pid));
    const opens = [];
    for (let i = 0; i < OPEN; i++) opens.push((await call(bases[i % bases.length], tokens[i], 'GET', '/assets/identifiers')).ms);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = servers.map((s) => rssOf(s.pid));
    const growth = after.reduce((n, r, i) => n + r - before[i], 0) / OPEN;
    const crowded = await measure(bases, active.token, ids);

    const row = (label, m) => `| ${label} | ${m.read.p50.toFixed(2)} | ${m.read.p99.toFixed(2)} | ${m.search.p50.toFixed(2)} | ${m.search.p99.toFixed(2)} |`;
    console.log(
      `\n${PG ? 'PostgreSQL, two instances' : 'SQLite, one instance'}: ${USERS} users (${directoryMs.toFixed(0)} ms to add ${tokens.length}), ${OPEN} other stores opened`,
    );
    console.log(`opening a new store (first request): p50 ${ms(opens).p50.toFixed(0)} ms, p99 ${ms(opens).p99.toFixed(0)} ms`);
    console.log(
      `RSS per open store: ${growth.toFixed(1)} MB (before ${before.map((r) => r.toFixed(0)).join('+')} MB, after ${after.map((r) => r.toFixed(0)).join('+')} MB)`,
    );
    console.log('| directory | read p50 ms | read p99 ms | search p50 ms | search p99 ms |\n|---|---|---|---|---|');
    console.log(row('1 user', alone));
    console.log(row(`${USERS} users, ${OPEN} stores open`, crowded));
    console.log(`p99 ratio: read ${(crowded.read.p99 / alone.read.p99).toFixed(2)}, search ${(crowded.search.p99 / alone.search.p99).toFixed(2)}`);
    void first;
  } finally {
    for (const server of servers) server.kill('SIGTERM');
    await control.close();
    if (PG) {
      const client = new Client({ connectionString: PG });
      await client.connect();
      const { rows } = await client.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'trove_%'");
      for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
      await client.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
