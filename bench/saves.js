// What a save costs, build against build (issue 45: the secrets scan at save must stay within the
// time budget of a save). Boots a built server in this process (temporary SQLite directory, port
// 0) and measures, in order:
//   - creates: `--creates` sequential `POST /assets/create` of 4-line functions (each its own
//     name), p50 / p95 of the HTTP round trip;
//   - import: `GET /trove/export` of a store of `--import` snippets (windows of 10-40 lines of this
//     checkout's src/ files, 1 in 20 with a secret of eval/secrets-corpus.js's heldout split) into a
//     fresh store with `POST /trove/import`: its wall time.
// Also the process's CPU time per create and for the import (it moves less with the machine's
// load than wall time). One line of JSON per run. With `--compare DIST_A DIST_B [--rounds 3]` it runs itself for each
// build in turns (A, B, A, B, ...: this machine's pace drifts) and prints each run and the medians.
//
//   npx nest build && node bench/saves.js --compare /path/to/other/checkout/dist dist --rounds 3
//   node bench/saves.js [--dist dist] [--creates 300] [--import 300]   (--import 0: creates only)
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { generate } = require('../eval/secrets-corpus');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const CREATES = Number(opt('creates', 300));
const IMPORTED = Number(opt('import', 300));

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const median = (xs) => quantile(xs, 0.5);

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
}

/** The snippets of the import: the same for every build. */
function snippets(n) {
  const secrets = generate('heldout', 2).map((s) => s.text);
  const sources = files(join(__dirname, '..', 'src')).map((f) => readFileSync(f, 'utf8').split('\n'));
  const out = [];
  for (let i = 0; out.length < n; i++) {
    if (i % 20 === 19) {
      out.push(secrets[i % secrets.length]);
      continue;
    }
    const lines = sources[i % sources.length];
    const from = (i * 37) % Math.max(1, lines.length - 10);
    out.push(lines.slice(from, from + 10 + (i % 31)).join('\n') + `\n// ${i}`);
  }
  return out;
}

const seed = (raw) => JSON.stringify({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw } } } } });

async function boot(dist) {
  const { createApp } = require(join(dist, 'src', 'bootstrap'));
  const { loadConfig } = require(join(dist, 'src', 'common', 'config', 'app-config'));
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-bench-saves-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  return {
    base,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function post(base, path, body, type = 'application/json') {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

async function run(dist) {
  const source = await boot(dist);
  const result = { dist };
  try {
    // Warm-up (first requests compile code paths), not measured.
    for (let i = 0; i < 20; i++) await post(source.base, '/assets/create', seed(`const warm${i} = ${i};`));
    const times = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < CREATES; i++) {
      const raw = [
        `export function total${i}(items: Item[]): number {`,
        '  let sum = 0;',
        '  for (const item of items) sum += item.price * item.quantity;',
        '  return sum;',
        '}',
      ].join('\n');
      const t0 = performance.now();
      await post(source.base, '/assets/create', seed(raw));
      times.push(performance.now() - t0);
    }
    result.createP50 = +quantile(times, 0.5).toFixed(2);
    result.createP95 = +quantile(times, 0.95).toFixed(2);
    // CPU time of this process (server and client) per create: moves less with the machine's load than the wall time.
    const cpu = process.cpuUsage(cpu0);
    result.createCpuMs = +((cpu.user + cpu.system) / 1000 / CREATES).toFixed(2);
    // The import's source store: its own snippets only.
  } finally {
    await source.close();
  }
  if (IMPORTED === 0) return result;
  const from = await boot(dist);
  let exported;
  try {
    for (const raw of snippets(IMPORTED)) await post(from.base, '/assets/create', seed(raw));
    exported = await (await fetch(`${from.base}/trove/export`)).text();
  } finally {
    await from.close();
  }
  const into = await boot(dist);
  try {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await post(into.base, '/trove/import', exported, 'application/x-ndjson');
    result.importSeconds = +((performance.now() - t0) / 1000).toFixed(3);
    const cpu = process.cpuUsage(cpu0);
    result.importCpuSeconds = +((cpu.user + cpu.system) / 1e6).toFixed(3);
    result.imported = IMPORTED;
  } finally {
    await into.close();
  }
  return result;
}

function compare(a, b, rounds) {
  const runs = { [a]: [], [b]: [] };
  for (let r = 0; r < rounds; r++) {
    for (const dist of r % 2 ? [b, a] : [a, b]) {
      const child = spawnSync(
        process.execPath,
        [__filename, '--dist', dist, '--creates', String(CREATES), '--import', String(IMPORTED)],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(child.stderr);
      const line = JSON.parse(child.stdout.trim().split('\n').pop());
      runs[dist].push(line);
      console.log(JSON.stringify(line));
    }
  }
  for (const dist of [a, b]) {
    const m = (k) => median(runs[dist].map((x) => x[k]));
    console.log(
      `${dist}: median create p50 ${m('createP50')} ms, p95 ${m('createP95')} ms, CPU ${m('createCpuMs')} ms a create; ` +
        `import of ${IMPORTED}: ${m('importSeconds')} s (CPU ${m('importCpuSeconds')} s)`,
    );
  }
}

const i = args.indexOf('--compare');
if (i >= 0) {
  compare(resolve(args[i + 1]), resolve(args[i + 2]), Number(opt('rounds', 3)));
} else {
  run(resolve(opt('dist', join(__dirname, '..', 'dist'))))
    .then((r) => {
      console.log(JSON.stringify(r));
      process.exit(0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
