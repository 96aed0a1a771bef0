// Two builds of Trove side by side, GET /asset/{id} measured in turns: what a change costs a read
// on a machine whose pace drifts (one run each would compare the builds at different paces).
//   node bench/compare-reads.js <checkout before> <checkout after>     (each built: dist/)
// Env: AB_ROUNDS (10), AB_SECONDS (3 per build and round), AB_JSON=1 (also the second build with
// TROVE_LOG_FORMAT=json), AB_VARIANTS (a JSON list of {name, cwd, extra: {env}} instead).
// Each server runs as `npm start` does, rate limit off, 200 snippets, 3 s of warm-up, then
// 50 connections; the order of the builds alternates each round.
const autocannon = require('autocannon');
const { spawn } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 10);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'trove-compare-'));
const start = (cwd, port, extra = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-semi-space-size=4', 'dist/src/main.js'], {
      cwd,
      env: {
        ...process.env,
        PORT: String(port),
        TROVE_DATA_DIR: join(dir, String(port)),
        TROVE_PORT_FILE: 'off',
        TROVE_RATE_LIMIT: '0',
        TROVE_LOG_LEVEL: 'log',
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    // Read until ready, then only drained (a JSON-log server writes a line per request).
    child.stdout.on('data', (d) => {
      if (child.ready) return;
      out += d;
      if (/listening on|Trove/.test(out)) {
        child.ready = true;
        resolve(child);
      }
    });
    child.stderr.on('data', (d) => {
      if (!child.ready) out += d;
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
const seed = JSON.stringify({
  type: 'SEEDED_ASSET',
  asset: {
    format: {
      fragment: {
        string: { raw: 'export async function fetchUser(id: string) {\n  return fetch(`/api/users/${id}`);\n}' },
      },
    },
  },
});
async function ids(base) {
  const out = [];
  for (let i = 0; i < 200; i++)
    out.push(
      (
        await (
          await fetch(`${base}/assets/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: seed,
          })
        ).json()
      ).id,
    );
  return out;
}
function run(base, list, seconds, latencies) {
  let next = 0;
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: base,
        connections: 50,
        duration: seconds,
        requests: [
          { method: 'GET', setupRequest: (req) => ({ ...req, path: `/asset/${list[next++ % list.length]}` }) },
        ],
      },
      (err, result) =>
        err ? reject(err) : result.non2xx || result.errors ? reject(new Error('non-2xx')) : resolve(result),
    );
    if (latencies) inst.on('response', (_c, _s, _b, t) => latencies.push(t));
  });
}
(async () => {
  const servers = [];
  const [baseDir, branchDir] = process.argv.slice(2).map((d) => require('node:path').resolve(d));
  const variants = [
    { name: 'before', cwd: baseDir, port: 39401 },
    { name: 'after', cwd: branchDir, port: 39402 },
  ];
  if (process.env.AB_JSON)
    variants.push({ name: 'after, JSON logs', cwd: branchDir, port: 39403, extra: { TROVE_LOG_FORMAT: 'json' } });
  if (process.env.AB_VARIANTS) {
    variants.length = 0;
    JSON.parse(process.env.AB_VARIANTS).forEach((v, i) => variants.push({ ...v, port: 39410 + i }));
  }
  try {
    for (const v of variants) {
      const child = await start(v.cwd, v.port, v.extra);
      if (v.extra) child.stdout.resume();
      servers.push(child);
      v.base = `http://127.0.0.1:${v.port}`;
      v.ids = await ids(v.base);
      await run(v.base, v.ids, 3); // warm-up
      v.requests = 0;
      v.seconds = 0;
      v.latencies = [];
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of r % 2 ? [...variants].reverse() : variants) {
        const result = await run(v.base, v.ids, SECONDS, v.latencies);
        v.requests += result.requests.total;
        v.seconds += result.duration;
      }
    }
    for (const v of variants) {
      v.latencies.sort((a, b) => a - b);
      console.log(
        `${v.name}: ${(v.requests / v.seconds).toFixed(0)} req/s, p50 ${v.latencies[Math.floor(v.latencies.length * 0.5)]} ms, p99 ${v.latencies[Math.floor(v.latencies.length * 0.99)]} ms`,
      );
    }
  } finally {
    for (const s of servers) s.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
