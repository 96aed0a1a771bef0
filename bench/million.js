// Trove at 1,000,000 assets (issue 24): the corpus of bench/search.js (bench/lib/corpus.js, seed 42)
// bulk-loaded to BENCH_ASSETS, then the built server started on it as users start it and measured
// over HTTP from other processes:
//  - startup: spawn to the first 200 of /.well-known/health, median of 3 starts;
//  - database size (trove.db + -wal + -shm) in all and per asset; idle RSS;
//  - GET /assets/search p50 / p99 per query class of bench/search.js (bench/lib/query-classes.js);
//  - POST /qgpt/relevance p95 (options.database, offline engine), as bench/qgpt.js asks it;
//  - POST /assets/create at 50 connections (bench/lib/create-load.js), against the 100k figure;
//  - the listings: GET /assets read by a fast and by a slow consumer, GET /assets?transferables=false
//    and GET /assets/identifiers: time to the first byte, total time (or "did not finish" after
//    BENCH_LIST_TIMEOUT s), the server's peak RSS (VmRSS every 100 ms) and, meanwhile,
//    GET /assets/{id} from another client every 50 ms (bench/lib/probe-client.js): non-200 answers.
//
//   npx nest build && BENCH_DATA_DIR=/path/to/keep node bench/million.js
//
// Env: BENCH_ASSETS (1000000), BENCH_DATA_DIR (keep the SQLite data there: a directory holding
//      the corpus is reused, one holding part of it is loaded on; default: a temporary directory,
//      removed at the end), BENCH_QUERIES (timed queries per search class and relevance row, 300),
//      BENCH_CLASSES (a regular expression: only these search classes), BENCH_LISTINGS (a regular
//      expression: only the listings whose row name matches, e.g. identifiers), BENCH_CREATE_SECONDS (20;
//      0 skips the creates; they add ~10,000 assets to a kept corpus per run),
//      BENCH_REFERENCE_DIR (a kept 100,000-asset corpus, e.g. BENCH_ASSETS=100000 of this script:
//      the same create load runs against it right after, as a same-day reference),
//      BENCH_LIST_TIMEOUT (s, 300), BENCH_SLOW_SECONDS (how long the slow consumer reads, 30),
//      BENCH_SLOW_RATE (its bytes/s, 1000000), BENCH_RSS_LIMIT_MB (a listing is aborted when the
//      server's RSS passes it, 3072), BENCH_PHASES (comma-separated among load, size (the bytes of
//      each table and index, from SQLite's dbstat: reads the whole file), startup, search,
//      relevance, creates, listing; all by default), BENCH_ROOT (the checkout whose dist/ to run,
//      this repository by default), BENCH_RESULTS (the JSON file, bench/results/million.json).
// The load runs in this process (the app of dist/, as bench/search.js loads), 2,000 assets per
// transaction, the index written by SearchIndex.index from aggregates read back a batch at a time;
// the assets of one transaction share their created_at (ties the listings' keyset walk breaks on
// the id). The phases run in the order above, the listings before the creates (which add assets).
// Prints one table of the issue's figures and writes them all as JSON (BENCH_RESULTS).
'use strict';
const { spawn, execFile, execFileSync } = require('node:child_process');
const {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const http = require('node:http');
const { cpus, loadavg, tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { promisify } = require('node:util');
const { setTimeout: sleep } = require('node:timers/promises');
const sqlite3 = require('sqlite3');
const { Corpus } = require('./lib/corpus');
const { queryClasses, relevanceQuestion } = require('./lib/query-classes');
const { seedOf } = require('./lib/seeds');
const { loadCorpus } = require('./lib/load-corpus');
const { NPM_START_FLAGS, untilIdle } = require('./lib/processes');
const { percentile } = require('./lib/stats');

const ASSETS = Number(process.env.BENCH_ASSETS ?? 1_000_000);
const DATA_DIR = process.env.BENCH_DATA_DIR ? resolve(process.env.BENCH_DATA_DIR) : null;
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const CLASSES = new RegExp(process.env.BENCH_CLASSES ?? '');
const LISTINGS = new RegExp(process.env.BENCH_LISTINGS ?? '');
const CREATE_SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 20);
const REFERENCE_DIR = process.env.BENCH_REFERENCE_DIR ? resolve(process.env.BENCH_REFERENCE_DIR) : null;
const LIST_TIMEOUT_MS = Number(process.env.BENCH_LIST_TIMEOUT ?? 300) * 1000;
const SLOW_MS = Number(process.env.BENCH_SLOW_SECONDS ?? 30) * 1000;
const SLOW_RATE = Number(process.env.BENCH_SLOW_RATE ?? 1_000_000);
const RSS_LIMIT = Number(process.env.BENCH_RSS_LIMIT_MB ?? 3072) * 2 ** 20;
const PHASES = new Set(
  (process.env.BENCH_PHASES ?? 'load,size,startup,search,relevance,creates,listing').split(',').map((p) => p.trim()),
);
const ROOT = resolve(process.env.BENCH_ROOT ?? join(__dirname, '..'));
const RESULTS = resolve(process.env.BENCH_RESULTS ?? join(__dirname, 'results', 'million.json'));
const DIST = join(ROOT, 'dist', 'src');
/** Port of the server under test (bench/search.js uses 39396). */
const PORT = 39397;
const BASE = `http://127.0.0.1:${PORT}`;
const BATCH = 2000;
const STARTS = 3;
/** Longest wait for a start to answer /.well-known/health. */
const START_TIMEOUT_MS = 600_000;
/**
 * The 100,000-asset figures these are held to (docs/PERFORMANCE.md, "Search": POST /assets/create,
 * 50 connections to a standalone server, 20 s; fresh / reused corpus; target >= 500/s).
 */
const CREATES_100K = { fresh: 501, reused: 620, target: 500 };
/** Issue 24's targets at 1,000,000 assets. */
const TARGETS = {
  searchP99: 50,
  relevanceP95: 100,
  startupMs: 2000,
  listingRss: 300 * 2 ** 20,
  firstByteMs: 200,
  identifiersMs: 2000,
};
/** The search classes the "word / identifier" target covers (bench/lib/query-classes.js names). */
const WORD_CLASSES = /^(word|words|identifier)/;

const MB = 2 ** 20;
const round = (n, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);
const log = (message) => process.stderr.write(`[million ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

// --- the database file, read directly (the server is not running) ------------------------------

function sqliteAll(path, sql, params = []) {
  return new Promise((resolvePromise, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.all(sql, params, (err, rows) => db.close(() => (err ? reject(err) : resolvePromise(rows))));
    });
  });
}

async function countAssets(dataDir) {
  const path = join(dataDir, 'trove.db');
  if (!existsSync(path)) return { all: 0, live: 0 };
  const [row] = await sqliteAll(
    path,
    `SELECT COUNT(*) AS n, SUM(deleted_at IS NULL AND pseudo = 0) AS live FROM assets`,
  );
  return { all: Number(row.n), live: Number(row.live ?? 0) };
}

/** Sizes in bytes of the database file, its WAL and its shared-memory index. */
function databaseSize(dataDir) {
  const size = (suffix) => {
    try {
      return statSync(join(dataDir, `trove.db${suffix}`)).size;
    } catch {
      return 0;
    }
  };
  const db = size('');
  const wal = size('-wal');
  const shm = size('-shm');
  return { db, wal, shm, total: db + wal + shm };
}

// --- 1. the corpus ----------------------------------------------------------------------------

/** Loads the corpus to ASSETS (on from what `dataDir` holds); keeps the load time in million-load.json. */
async function loadPhase(dataDir) {
  const statePath = join(dataDir, 'million-load.json');
  const state = existsSync(statePath)
    ? JSON.parse(readFileSync(statePath, 'utf8'))
    : { seconds: 0, loaded: 0, runs: [] };
  const present = await countAssets(dataDir);
  if (present.all >= ASSETS) {
    log(`corpus: ${present.all} assets in ${dataDir}, reused`);
    return { reused: true, assets: present.all, ...state };
  }
  const { createApp } = require(join(DIST, 'bootstrap'));
  const { loadConfig } = require(join(DIST, 'common', 'config', 'app-config'));
  const { Database } = require(join(DIST, 'common', 'database', 'database.service'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
  });
  const bootStart = performance.now();
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const bootSeconds = (performance.now() - bootStart) / 1000;
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const db = app.get(Database);
  const corpus = new Corpus(42);
  let creator;
  let applicationId;
  let loaded = present.all;
  if (loaded === 0) {
    // The first asset through the API, as bench/search.js does: it registers the application.
    const res = await fetch(`${base}/assets/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(seedOf(corpus.asset(), true)),
    });
    const first = await res.json();
    if (res.status !== 200) throw new Error(`first create: ${res.status} ${JSON.stringify(first)}`);
    applicationId = first.formats.iterable[0].application.id;
    creator = first.creator;
    loaded = 1;
  } else {
    // Resuming: the generator skips what is already loaded, so the corpus is the same as in one go.
    for (let i = 0; i < loaded; i++) corpus.asset();
    const [row] = await db.read((em) =>
      em.query(
        `SELECT creator, application_id FROM formats WHERE application_id IS NOT NULL ORDER BY created_at LIMIT 1`,
      ),
    );
    creator = row.creator;
    applicationId = row.application_id;
    log(`corpus: resuming at ${loaded} assets (the app took ${bootSeconds.toFixed(1)} s to start on them)`);
  }
  const before = { seconds: state.seconds, loaded: state.loaded };
  const save = (extra) => {
    writeFileSync(`${statePath}.tmp`, JSON.stringify({ ...state, ...extra }, null, 1));
    renameSync(`${statePath}.tmp`, statePath);
  };
  const from = loaded;
  const result = await loadCorpus(app, {
    corpus,
    loaded,
    target: ASSETS,
    creator,
    applicationId,
    batch: BATCH,
    readBack: 'batch',
    dist: DIST,
    progress: (n, seconds) => {
      log(
        `  loaded ${n}/${ASSETS} (${Math.round((n - from) / seconds)}/s over this run, ${Math.round(databaseSize(dataDir).total / MB)} MB)`,
      );
      save({ seconds: before.seconds + seconds, loaded: before.loaded + (n - from) });
    },
  });
  await app.close();
  state.runs.push({
    at: new Date().toISOString(),
    from,
    to: result.loaded,
    seconds: round(result.seconds),
    rate: round(result.rate, 0),
  });
  state.seconds = before.seconds + result.seconds;
  state.loaded = before.loaded + (result.loaded - from);
  save({});
  return { reused: false, assets: result.loaded, ...state };
}

// --- the server under test ---------------------------------------------------------------------

/** The built server as `npm start` runs it, on `dataDir`; resolved at its first healthy answer. */
async function startServer(dataDir) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...NPM_START_FLAGS, join(DIST, 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      TROVE_PORT_FILE: 'off',
      TROVE_DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      TROVE_RATE_LIMIT: '0',
      TROVE_RATE_LIMIT_QGPT: '0',
      TROVE_LOG_LEVEL: 'log',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, pid: child.pid, output: '', exited: null, listeningMs: null };
  const onData = (data) => {
    server.output = (server.output + data).slice(-20_000);
    if (server.listeningMs === null && /listening on/.test(server.output)) server.listeningMs = performance.now() - t0;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  server.exit = new Promise((r) => child.once('exit', (code, signal) => r((server.exited = { code, signal }))));
  while (!server.exited) {
    if (performance.now() - t0 > START_TIMEOUT_MS) {
      await stopServer(server);
      throw new Error(`no healthy answer ${START_TIMEOUT_MS / 1000} s after the start: ${server.output.slice(-2000)}`);
    }
    try {
      const res = await fetch(`${BASE}/.well-known/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) {
        server.healthyMs = performance.now() - t0;
        return server;
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(
    `the server exited (${JSON.stringify(server.exited)}) before answering: ${server.output.slice(-2000)}`,
  );
}

async function stopServer(server) {
  if (!server || server.exited) return;
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 60_000);
  await server.exit;
  clearTimeout(timer);
}

function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : NaN;
  } catch {
    return NaN; // gone
  }
}

/** Samples the process's RSS every 100 ms until stopped; `onSample` may abort what is measured. */
function rssSampler(pid, onSample = () => undefined) {
  const samples = [];
  const timer = setInterval(() => {
    const rss = rssOf(pid);
    if (Number.isFinite(rss)) {
      samples.push(rss);
      onSample(rss);
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      const rss = rssOf(pid);
      if (Number.isFinite(rss)) samples.push(rss);
      return { peak: samples.length ? Math.max(...samples) : NaN, samples: samples.length };
    },
  };
}

// --- 2. search, relevance, creates --------------------------------------------------------------

async function timed(url, init) {
  const t0 = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const body = await res.json();
  return { ms: performance.now() - t0, status: res.status, body };
}

async function searchPhase() {
  const q = new Corpus(7);
  const rows = [];
  for (const [name, make] of queryClasses(q).filter(([n]) => CLASSES.test(n))) {
    const latencies = [];
    let results = 0;
    for (let i = 0; i < QUERIES + 20; i++) {
      const { ms, status, body } = await timed(`${BASE}/assets/search?${new URLSearchParams(make())}`);
      if (status !== 200) throw new Error(`${name}: ${status} ${JSON.stringify(body)}`);
      if (i >= 20) {
        latencies.push(ms);
        results += body.iterable.length;
      }
    }
    latencies.sort((a, b) => a - b);
    const row = {
      name,
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1]),
      results: round(results / QUERIES),
    };
    log(`  search ${name}: p50 ${row.p50} p99 ${row.p99} ms`);
    rows.push(row);
  }
  return rows;
}

async function relevancePhase() {
  const q = new Corpus(7);
  const rows = [];
  for (const question of [false, true]) {
    const latencies = [];
    let found = 0;
    for (let i = 0; i < QUERIES + 20; i++) {
      const { ms, status, body } = await timed(`${BASE}/qgpt/relevance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: relevanceQuestion(q), options: { database: true, question } }),
      });
      if (status !== 200) throw new Error(`relevance: ${status} ${JSON.stringify(body)}`);
      if (i >= 20) {
        latencies.push(ms);
        found += body.relevant.iterable.length;
      }
    }
    latencies.sort((a, b) => a - b);
    const row = {
      question,
      p50: round(percentile(latencies, 50)),
      p95: round(percentile(latencies, 95)),
      p99: round(percentile(latencies, 99)),
      snippets: round(found / QUERIES),
    };
    log(`  relevance (options.question ${question}): p50 ${row.p50} p95 ${row.p95} ms`);
    rows.push(row);
  }
  return rows;
}

/** bench/lib/create-load.js against the server on PORT: { rate, p50, p99, non2xx, errors }. */
async function createLoad() {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(__dirname, 'lib', 'create-load.js'), BASE, '50', String(CREATE_SECONDS), '4242'],
    {
      timeout: (CREATE_SECONDS + 120) * 1000,
    },
  );
  return JSON.parse(stdout.trim().split('\n').pop());
}

// --- 3. the listings ----------------------------------------------------------------------------

/**
 * GET `path` read by one consumer: as fast as it can, or `rate` bytes/s (pausing the socket);
 * it stops on purpose `readMs` after the first byte, gives up after `limitMs` or when abort(why) is called.
 * Keeps the body only when `keep` (to check it). { done: Promise<out>, abort }.
 */
function listing(path, { rate = 0, readMs = Infinity, limitMs, keep = false }) {
  const t0 = performance.now();
  const out = {
    status: null,
    headersMs: null,
    firstByteMs: null,
    totalMs: null,
    endMs: null,
    bytes: 0,
    finished: false,
    stopped: null,
    stop: null,
  };
  const chunks = [];
  let settle;
  const done = new Promise((r) => (settle = r));
  let settled = false;
  /** `stop`: null at the end of the body, else [kind, why], kind one of purpose, timeout, abort, error. */
  const finish = (stop) => {
    if (settled) return;
    settled = true;
    clearTimeout(limit);
    out.endMs = performance.now() - t0;
    if (stop) {
      [out.stop, out.stopped] = stop;
      req.destroy();
    } else {
      out.totalMs = performance.now() - t0;
      out.finished = true;
      if (keep) out.body = Buffer.concat(chunks);
    }
    settle(out);
  };
  const req = http.get(`${BASE}${path}`, { agent: false }, (res) => {
    out.status = res.statusCode;
    out.headersMs = performance.now() - t0;
    res.on('data', (chunk) => {
      if (out.firstByteMs === null) out.firstByteMs = performance.now() - t0;
      out.bytes += chunk.length;
      if (keep) chunks.push(chunk);
      const elapsed = performance.now() - t0;
      if (elapsed - out.firstByteMs > readMs)
        return finish(['purpose', `stopped reading after ${Math.round(readMs / 1000)} s, on purpose`]);
      if (rate > 0) {
        // hold the socket until the rate allows the bytes read so far
        const due = (out.bytes / rate) * 1000 - elapsed;
        if (due > 0) {
          res.pause();
          setTimeout(() => res.resume(), due);
        }
      }
    });
    res.on('end', () => finish(null));
    res.on('error', (error) => finish(['error', `response error: ${error.message}`]));
    res.on('aborted', () => finish(['error', 'the server closed the response before its end']));
  });
  req.on('error', (error) => finish(['error', `request error: ${error.message}`]));
  const limit = setTimeout(() => finish(['timeout', `did not finish in ${limitMs / 1000} s`]), limitMs);
  return { done, abort: (why) => finish(['abort', why]) };
}

/** Starts bench/lib/probe-client.js on `ids`; stop() ends it and resolves its stats. */
function probeClient(ids) {
  const child = spawn(process.execPath, [join(__dirname, 'lib', 'probe-client.js'), BASE, '50', '5000'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(JSON.stringify(ids));
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  const exited = new Promise((r) => child.once('exit', r));
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      try {
        return JSON.parse(stdout.trim().split('\n').pop());
      } catch {
        return { error: `probe client printed ${JSON.stringify(stdout.slice(-200))}` };
      }
    },
  };
}

async function listingPhase(state, ids, liveAssets) {
  const cases = [
    { name: 'GET /assets, fast consumer', path: '/assets', options: { limitMs: LIST_TIMEOUT_MS } },
    {
      name: `GET /assets, slow consumer (${SLOW_RATE / 1e6} MB/s for ${SLOW_MS / 1000} s)`,
      path: '/assets',
      options: { rate: SLOW_RATE, readMs: SLOW_MS, limitMs: LIST_TIMEOUT_MS },
      slow: true,
    },
    {
      name: 'GET /assets?transferables=false, fast consumer',
      path: '/assets?transferables=false',
      options: { limitMs: LIST_TIMEOUT_MS },
    },
    {
      name: 'GET /assets/identifiers, fast consumer',
      path: '/assets/identifiers',
      options: { limitMs: LIST_TIMEOUT_MS, keep: true },
      ids: true,
    },
  ];
  const rows = [];
  for (const c of cases.filter((c) => LISTINGS.test(c.name))) {
    state.server = await serverReady(state, c.name);
    const rssBefore = rssOf(state.server.pid);
    const probe = probeClient(ids);
    await sleep(200); // the probe client's first answers, before the listing starts
    let request = null;
    const sampler = rssSampler(state.server.pid, (rss) => {
      if (rss > RSS_LIMIT) request?.abort(`aborted: the server's RSS passed ${RSS_LIMIT / MB} MB`);
    });
    request = listing(c.path, c.options);
    const out = await request.done;
    const rss = sampler.stop();
    const probeStats = await probe.stop();
    const died = state.server.exited;
    const row = {
      name: c.name,
      status: out.status,
      headersMs: round(out.headersMs),
      firstByteMs: round(out.firstByteMs),
      totalMs: out.finished ? round(out.totalMs) : null,
      finished: out.finished,
      stopped: out.stopped,
      stop: out.stop,
      mbPerS:
        out.firstByteMs !== null && out.endMs > out.firstByteMs
          ? round(out.bytes / MB / ((out.endMs - out.firstByteMs) / 1000))
          : null,
      bytes: out.bytes,
      rssBeforeMb: round(rssBefore / MB),
      peakRssMb: round(rss.peak / MB),
      rssSamples: rss.samples,
      probe: probeStats,
      serverDied: died ? died : null,
    };
    if (c.ids && out.finished && out.body) {
      try {
        const body = JSON.parse(out.body.toString('utf8'));
        row.items = body.iterable.length;
        row.complete = row.items === liveAssets();
      } catch (error) {
        row.items = null;
        row.complete = false;
        row.parseError = error.message.slice(0, 200);
      }
    } else if (out.finished) {
      row.complete = out.status === 200;
    }
    log(
      `  ${c.name}: status ${row.status}, first byte ${row.firstByteMs} ms, ${row.finished ? `total ${row.totalMs} ms` : row.stopped}, ${(row.bytes / MB).toFixed(0)} MB, peak RSS ${row.peakRssMb} MB, probe ${JSON.stringify(probeStats)}`,
    );
    rows.push(row);
  }
  return rows;
}

/**
 * The server, ready for the next measurement: restarted when it died, kept more memory than
 * twice its idle RSS (or 300 MB) after the previous one, or stays busy for 60 s.
 */
async function serverReady(state, before) {
  let server = state.server;
  let why = null;
  if (!server || server.exited) why = server ? `it exited (${JSON.stringify(server.exited)})` : 'none running';
  else {
    const idle = await untilIdle(server.child, 60_000);
    const rss = rssOf(server.pid);
    if (idle >= 60) why = 'still busy after 60 s';
    else if (rss > Math.max(2 * (state.idleRss ?? 0), 300 * MB)) why = `its RSS was ${Math.round(rss / MB)} MB`;
  }
  if (!why) return server;
  log(`  restarting the server before "${before}": ${why}`);
  await stopServer(server);
  server = await startServer(state.dataDir);
  await untilIdle(server.child, 120_000);
  state.restarts.push({ before, why, startMs: round(server.healthyMs, 0) });
  return server;
}

// --- main ---------------------------------------------------------------------------------------

function commitOf(root) {
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain', '--', 'src'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${commit} + uncommitted changes in src/` : commit;
  } catch {
    return existsSync(join(root, '.commit')) ? readFileSync(join(root, '.commit'), 'utf8').trim() : 'unknown';
  }
}

async function main() {
  const dataDir = DATA_DIR ?? mkdtempSync(join(tmpdir(), 'trove-bench-million-'));
  mkdirSync(dataDir, { recursive: true });
  const state = { dataDir, server: null, idleRss: null, restarts: [] };
  const startLoad = loadavg()[0];
  const results = {
    at: new Date().toISOString(),
    build: { root: ROOT, commit: commitOf(ROOT) },
    machine: `${cpus().length} cores (${cpus()[0].model.trim()}), Node ${process.version}`,
    command: `BENCH_ASSETS=${ASSETS} BENCH_DATA_DIR=${DATA_DIR ?? '(temporary)'} node bench/million.js`,
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BENCH_'))),
    targets: TARGETS,
  };
  const cleanup = async () => {
    await stopServer(state.server).catch(() => undefined);
    if (!DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));
  try {
    if (PHASES.has('load')) {
      log(`corpus: loading to ${ASSETS} assets in ${dataDir}`);
      results.load = await loadPhase(dataDir);
    }
    const counts = await countAssets(dataDir);
    results.assets = counts.all;
    results.size = databaseSize(dataDir);
    if (PHASES.has('size')) {
      log('size: dbstat');
      const rows = await sqliteAll(
        join(dataDir, 'trove.db'),
        `SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC`,
      );
      results.sizeByObject = rows.map((r) => ({
        name: r.name,
        mb: round(r.bytes / MB),
        perAsset: Math.round(r.bytes / counts.all),
      }));
    }
    log(`corpus: ${counts.all} assets (${counts.live} live, not pseudo), ${(results.size.total / MB).toFixed(0)} MB`);
    if (counts.all === 0) throw new Error(`no corpus in ${dataDir}: run with BENCH_PHASES including load`);
    // ids for the second client of the listings, spread over the corpus (read before the server starts)
    const ids = (
      await sqliteAll(
        join(dataDir, 'trove.db'),
        `SELECT id FROM assets WHERE deleted_at IS NULL AND pseudo = 0 ORDER BY random() LIMIT 500`,
      )
    ).map((r) => r.id);

    // Starts: the first may find work the load left (an index to check, a WAL to replay).
    results.starts = [];
    const starts = PHASES.has('startup') ? STARTS : 1;
    for (let i = 0; i < starts; i++) {
      await stopServer(state.server);
      state.server = await startServer(dataDir);
      results.starts.push({
        healthyMs: round(state.server.healthyMs, 0),
        listeningMs: round(state.server.listeningMs, 0),
      });
      log(`  start ${i + 1}: healthy after ${Math.round(state.server.healthyMs)} ms`);
    }
    const startMs = results.starts.map((s) => s.healthyMs).sort((a, b) => a - b);
    results.startupMedianMs = startMs[Math.floor(startMs.length / 2)];
    results.idleAfterStartS = await untilIdle(state.server.child, 300_000);
    state.idleRss = rssOf(state.server.pid);
    results.idleRssMb = round(state.idleRss / MB);
    results.sizeRunning = databaseSize(dataDir);
    const startupLog = state.server.output
      .split('\n')
      .filter((line) => /indexed|missing|refin|migrat|pending|took|listening/i.test(line))
      .slice(-10);
    results.startupLog = startupLog.map((line) =>
      line.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '').slice(0, 300),
    );
    log(
      `startup median ${results.startupMedianMs} ms, idle ${results.idleAfterStartS} s after, RSS ${results.idleRssMb} MB`,
    );

    // The machine's 1-minute load average as each phase starts (other jobs share the cores).
    results.loadavg = { start: round(startLoad, 2), startup: round(loadavg()[0], 2) };
    if (PHASES.has('search')) {
      results.loadavg.search = round(loadavg()[0], 2);
      log('search');
      results.search = await searchPhase();
    }
    if (PHASES.has('relevance')) {
      results.loadavg.relevance = round(loadavg()[0], 2);
      log('relevance');
      state.server = await serverReady(state, 'relevance');
      results.relevance = await relevancePhase();
    }
    if (PHASES.has('listing')) {
      results.loadavg.listing = round(loadavg()[0], 2);
      log('listings');
      const live = (await countAssets(dataDir)).live; // the server writes nothing meanwhile
      results.listing = await listingPhase(state, ids, () => live);
      results.listingAssets = live;
    }
    if (PHASES.has('creates') && CREATE_SECONDS > 0) {
      results.loadavg.creates = round(loadavg()[0], 2);
      log('creates');
      state.server = await serverReady(state, 'creates');
      const assetsBefore = (await countAssets(dataDir)).all;
      results.creates = { assetsBefore, ...(await createLoad()) };
      log(`  creates at 50 connections: ${JSON.stringify(results.creates)}`);
      if (REFERENCE_DIR) {
        await stopServer(state.server);
        state.server = await startServer(REFERENCE_DIR);
        await untilIdle(state.server.child, 120_000);
        results.createsReference = {
          dataDir: REFERENCE_DIR,
          assets: (await countAssets(REFERENCE_DIR)).all,
          ...(await createLoad()),
        };
        log(`  creates at 50 connections on the reference corpus: ${JSON.stringify(results.createsReference)}`);
      }
    }
    results.restarts = state.restarts;
  } finally {
    await cleanup();
  }
  results.sizeAfter = DATA_DIR ? databaseSize(dataDir) : null;
  mkdirSync(join(RESULTS, '..'), { recursive: true });
  writeFileSync(`${RESULTS}.tmp`, JSON.stringify(results, null, 1) + '\n');
  renameSync(`${RESULTS}.tmp`, RESULTS);
  console.log(report(results));
  console.log(`\nJSON: ${RESULTS}`);
}

/** The results as one table of the issue's figures, then the details. */
function report(r) {
  const ms = (n) => (n === null || n === undefined ? 'n/a' : `${round(n)} ms`);
  const met = (ok) => (ok === null ? '' : ok ? 'yes' : 'no');
  const rows = [];
  const add = (figure, target, measured, ok = null) =>
    rows.push(`| ${figure} | ${target} | ${measured} | ${met(ok)} |`);
  const assets = r.assets.toLocaleString('en-US');
  if (r.load)
    add(
      'corpus load (bulk, 2,000 per transaction)',
      '< 1 h',
      `${(r.load.seconds / 60).toFixed(1)} min for ${r.load.loaded.toLocaleString('en-US')} assets (${Math.round(r.load.loaded / r.load.seconds)}/s)${r.load.reused ? ', earlier run' : ''}`,
      r.load.seconds < 3600,
    );
  add(
    `startup to the first healthy answer (median of ${r.starts.length})`,
    '< 2 s',
    `${ms(r.startupMedianMs)} (${r.starts.map((s) => s.healthyMs).join(', ')}; listening at ${r.starts.map((s) => s.listeningMs).join(', ')})`,
    r.startupMedianMs < TARGETS.startupMs,
  );
  const size = r.sizeRunning ?? r.size;
  add(
    'database size (db + wal + shm)',
    'reported',
    `${(size.total / 2 ** 30).toFixed(2)} GiB: ${(size.db / MB).toFixed(0)} + ${(size.wal / MB).toFixed(0)} + ${(size.shm / MB).toFixed(1)} MB; ${Math.round(size.total / r.assets).toLocaleString('en-US')} bytes per asset`,
  );
  if (r.sizeByObject)
    add(
      'largest tables and indexes (bytes per asset)',
      'reported',
      r.sizeByObject
        .slice(0, 6)
        .map((o) => `${o.name} ${o.perAsset}`)
        .join(', '),
    );
  add('idle RSS after start', 'reported', `${r.idleRssMb} MB (idle ${r.idleAfterStartS} s after the start)`);
  for (const s of r.search ?? []) {
    const target = WORD_CLASSES.test(s.name);
    add(
      `search p50 / p99: ${s.name}`,
      target ? 'p99 < 50 ms' : '',
      `${s.p50} / ${s.p99} ms`,
      target ? s.p99 < TARGETS.searchP99 : null,
    );
  }
  for (const q of r.relevance ?? [])
    add(
      `relevance p50 / p95, options.question ${q.question}`,
      'p95 < 100 ms',
      `${q.p50} / ${q.p95} ms`,
      q.p95 < TARGETS.relevanceP95,
    );
  if (r.creates) {
    const ref = r.createsReference;
    add(
      'creates at 50 connections, 20 s',
      `>= the 100k rate (${CREATES_100K.fresh}/s fresh, ${CREATES_100K.reused}/s reused${ref ? `; ${Math.round(ref.rate)}/s on the reference now` : ''})`,
      `${Math.round(r.creates.rate)}/s (p50 ${r.creates.p50}, p99 ${r.creates.p99} ms, ${r.creates.non2xx} non-2xx ${JSON.stringify(r.creates.statuses ?? {})})${ref ? `, ${(r.creates.rate / ref.rate).toFixed(2)}x the reference` : ''}`,
      r.creates.rate >= (ref ? ref.rate : CREATES_100K.target),
    );
  }
  for (const l of r.listing ?? []) {
    const done = l.finished ? `total ${ms(l.totalMs)}` : (l.stopped ?? 'did not finish');
    const probe =
      l.probe && !l.probe.error
        ? `${l.probe.non200} of ${l.probe.requests} non-200 (${JSON.stringify(l.probe.statuses)}, ${l.probe.timeouts} timeouts), p99 ${l.probe.p99} ms`
        : JSON.stringify(l.probe);
    const what = `status ${l.status}, first byte ${ms(l.firstByteMs)}, ${done}, ${(l.bytes / MB).toFixed(0)} MB (${l.mbPerS} MB/s)${l.items !== undefined ? `, ${l.items} ids` : ''}; peak RSS ${l.peakRssMb} MB${l.serverDied ? `, server died ${JSON.stringify(l.serverDied)}` : ''}; other client: ${probe}`;
    const identifiers = /identifiers/.test(l.name);
    const ok =
      l.status === 200 &&
      !l.serverDied &&
      l.peakRssMb < TARGETS.listingRss / MB &&
      l.probe?.non200 === 0 &&
      l.firstByteMs !== null &&
      l.firstByteMs < TARGETS.firstByteMs &&
      (!identifiers || (l.finished && l.complete && l.totalMs < TARGETS.identifiersMs)) &&
      (l.finished ? l.complete !== false : l.stop === 'purpose' || l.stop === 'timeout');
    add(l.name, `RSS < 300 MB, no 503, first byte < 200 ms${identifiers ? ', total < 2 s' : ''}`, what, ok);
  }
  return [
    `Trove at ${assets} assets (${r.machine}); build ${r.build.commit} (${r.build.root}); ${r.at}.`,
    `Load average (1 min) as each phase started: ${Object.entries(r.loadavg ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    '| figure | target | measured | met |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

main().catch((error) => {
  console.error(String(error.stack ?? error).slice(0, 3000));
  process.exit(1);
});
