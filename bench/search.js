// Search at scale: 100,000 generated assets (code in six languages and prose notes, fixed seed),
// then GET /assets/search latency per query class and POST /assets/create throughput.
//
//   npx nest build && node bench/search.js
//
// Env: BENCH_ASSETS (default 100000), BENCH_QUERIES (timed queries per class, default 300),
//      BENCH_CREATES (default 2000), BENCH_CREATE_SECONDS (50-connection create load against a
//      standalone server, default 20; 0 skips it), DATABASE_URL (PostgreSQL instead of a temporary SQLite file),
//      BENCH_DATA_DIR (keep the SQLite data there; a directory already holding the corpus is reused,
//      not reloaded), BENCH_CLASSES (a regular expression: only the query classes it matches).
// The corpus is loaded in bulk, 1000 assets per transaction: asset, format and tag rows by plain
// multi-row INSERTs, websites through AssetWriter, and the index through AssetReader.one and
// SearchIndex.index, exactly what the create command calls. Queries and creates go over HTTP to the real app.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Corpus } = require('./lib/corpus');
const { queryClasses } = require('./lib/query-classes');
const { seedOf } = require('./lib/seeds');
const { startTrove, untilIdle } = require('./lib/processes');
const { percentile } = require('./lib/stats');
const { loadCorpus } = require('./lib/load-corpus');

const dist = join(__dirname, '..', 'dist', 'src');
const { createApp } = require(join(dist, 'bootstrap'));
const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
const { Database } = require(join(dist, 'common', 'database', 'database.service'));
const { SearchEngine } = require(join(dist, 'modules', 'search', 'search-engine.service'));

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const CREATES = Number(process.env.BENCH_CREATES ?? 2000);
const CREATE_SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 20);
/** Port of the standalone server the 50-connection create load runs against. */
const STANDALONE_PORT = 39396;
const BATCH = 1000;
const DATA_DIR = process.env.BENCH_DATA_DIR;
const CLASSES = new RegExp(process.env.BENCH_CLASSES ?? '');

async function main() {
  const dataDir = DATA_DIR ?? mkdtempSync(join(tmpdir(), 'trove-bench-search-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  });
  const app = await createApp(config);
  const shutdown = async () => {
    await app.close().catch(() => undefined);
    if (!DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => shutdown().then(() => process.exit(130)));
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await shutdown();
    throw error;
  }
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const db = app.get(Database);
  const post = (path, body) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  // 1. Bulk load through the app's writer and SearchIndex.index (bench/lib/load-corpus.js).
  const corpus = new Corpus(42);
  const first = await (await post('/assets/create', seedOf(corpus.asset(), true))).json();
  const applicationId = first.formats.iterable[0].application.id;
  const creator = first.creator;
  const [{ n: present }] = await db.read((em) => em.query(`SELECT COUNT(*) AS n FROM assets`));
  const { rate: loadRate } = await loadCorpus(app, {
    corpus,
    loaded: DATA_DIR ? Number(present) : 1,
    target: ASSETS,
    creator,
    applicationId,
    batch: BATCH,
    progress: (loaded, seconds) =>
      process.stderr.write(`  loaded ${loaded}/${ASSETS} (${Math.round(loaded / seconds)}/s)\n`),
  });

  // 2. Query classes, drawn from the same generator (fixed seed) so they hit real content.
  const q = new Corpus(7);
  const classes = queryClasses(q);
  const engine = app.get(SearchEngine);
  const rows = [];
  for (const [name, make] of classes.filter(([name]) => CLASSES.test(name))) {
    // In process: the search itself (index queries, fusion, loading the 20 result assets), no HTTP.
    const inner = [];
    for (let i = 0; i < QUERIES + 20; i++) {
      const { query, searchable_tags: tags } = make();
      const t0 = performance.now();
      await db.read((em) => engine.search(em, { query, tags: tags?.split(','), scope: { pseudo: false } }));
      if (i >= 20) inner.push(performance.now() - t0);
    }
    inner.sort((a, b) => a - b);
    const latencies = [];
    let results = 0;
    for (let i = 0; i < QUERIES + 20; i++) {
      const params = new URLSearchParams(make());
      const t0 = performance.now();
      const res = await fetch(`${base}/assets/search?${params}`);
      const body = await res.json();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
      if (i >= 20) {
        latencies.push(ms);
        results += body.iterable.length;
      }
    }
    latencies.sort((a, b) => a - b);
    rows.push({
      name,
      e50: percentile(inner, 50),
      e99: percentile(inner, 99),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1],
      results: results / QUERIES,
    });
  }

  // 3. Create throughput over HTTP (4 concurrent clients), with and without language detection.
  async function creates(n, classified) {
    const c = new Corpus(99 + (classified ? 1 : 0));
    const seeds = Array.from({ length: n }, () => seedOf(c.asset(), classified));
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < seeds.length) {
          const res = await post('/assets/create?transferables=false', seeds[next++]);
          if (res.status !== 200) throw new Error(`create: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    return n / ((performance.now() - t0) / 1000);
  }
  const createClassified = await creates(CREATES, true);
  const createDetected = await creates(Math.ceil(CREATES / 4), false);
  const [{ chars }] = await db.read((em) => em.query(`SELECT AVG(LENGTH(raw)) AS chars FROM formats`));
  // 50 connections from another process, against the server as deployed (`npm start`'s flags):
  // its own process on the same data (this one holds the corpus and the clients above, and shares their event loop).
  let createLoad = null;
  if (CREATE_SECONDS > 0) {
    await app.close();
    const server = await startTrove({
      TROVE_DATA_DIR: dataDir,
      PORT: String(STANDALONE_PORT),
      HOST: '127.0.0.1',
      TROVE_RATE_LIMIT: '0',
    });
    try {
      // At start the server finishes what the in-process phase left: the languages of the
      // "language detected" creates it stored with a provisional label. Not part of this load.
      const idle = await untilIdle(server);
      if (process.env.BENCH_VERBOSE) console.log(`standalone server idle ${idle} s after start`);
      const { stdout } = await promisify(execFile)(process.execPath, [
        join(__dirname, 'lib', 'create-load.js'),
        `http://127.0.0.1:${STANDALONE_PORT}`,
        '50',
        String(CREATE_SECONDS),
        '4242',
      ]);
      createLoad = JSON.parse(stdout.trim().split('\n').pop());
    } finally {
      server.kill();
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }

  const fmt = (n) => n.toFixed(1);
  const out = [];
  out.push(
    `Search over ${ASSETS.toLocaleString('en-US')} generated assets (${Number(chars).toFixed(0)} characters of text on average), ${config.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${cpus().length} cores (${cpus()[0].model.trim()}), Node ${process.version}.`,
  );
  out.push(
    'HTTP: measured by the client over 127.0.0.1, one request at a time, up to 20 full Assets per response; each answer also',
  );
  out.push('records a "searched" activity per result (a write transaction) that the next request may wait for.');
  out.push(
    'Engine: the same queries in process (SearchEngine.search inside Database.read: index queries, fusion, loading the results).',
  );
  out.push('');
  out.push(
    '| query class | engine p50 ms | engine p99 ms | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | HTTP max ms | results/query |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    out.push(
      `| ${r.name} | ${fmt(r.e50)} | ${fmt(r.e99)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${r.results.toFixed(1)} |`,
    );
  out.push('');
  out.push('| write path | rate |');
  out.push('|---|---:|');
  out.push(
    `| bulk load (multi-row INSERTs + SearchIndex.index, 1000 per transaction) | ${Number.isNaN(loadRate) ? 'reused' : `${Math.round(loadRate)} assets/s`} |`,
  );
  out.push(`| POST /assets/create, classification given (4 clients) | ${Math.round(createClassified)} assets/s |`);
  out.push(`| POST /assets/create, language detected (4 clients) | ${Math.round(createDetected)} assets/s |`);
  if (createLoad)
    out.push(
      `| POST /assets/create, classification given, 50 connections from another process to a standalone server, ${CREATE_SECONDS} s | ${Math.round(createLoad.rate)} assets/s (p50 ${createLoad.p50} ms, p99 ${createLoad.p99} ms, ${createLoad.non2xx} non-2xx) |`,
    );
  console.log(out.join('\n'));
  await shutdown();
}

main().catch((error) => {
  console.error(String(error.stack ?? error).slice(0, 2000));
  process.exit(1);
});
