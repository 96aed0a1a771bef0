// Question answering at scale and stream overhead:
//  1. POST /qgpt/relevance with the offline engine over the whole database (options.database,
//     with and without options.question) at 10,000 and then 100,000 generated assets;
//  2. time to the first streamed chunk of ws /qgpt/stream answering through a fake Ollama
//     server (started here on 127.0.0.1), against the time to the first chunk straight from it.
//
//   npx nest build && node bench/qgpt.js
//
// Env: BENCH_SIZES (default "10000,100000"), BENCH_QUERIES (timed per size, default 300),
//      BENCH_STREAMS (default 200), DATABASE_URL (PostgreSQL instead of a temporary SQLite file).
// The corpus (bench/lib/corpus.js, fixed seed) is loaded in bulk as bench/search.js does it.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const { WebSocket: WsClient } = require('ws');
const { Corpus } = require('./lib/corpus');
const { relevanceQuestion } = require('./lib/query-classes');
const { percentile } = require('./lib/stats');
const { insertAssets } = require('./lib/bulk-insert');

const dist = join(__dirname, '..', 'dist', 'src');
const { createApp } = require(join(dist, 'bootstrap'));
const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
const { Database } = require(join(dist, 'common', 'database', 'database.service'));
const { SearchIndex } = require(join(dist, 'modules', 'search', 'search-index.service'));
const { RelevantSnippets } = require(join(dist, 'modules', 'qgpt', 'relevant-snippets'));
const { OfflineAnswers } = require(join(dist, 'modules', 'qgpt', 'offline-answers'));

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const BATCH = 1000;

const fmt = (n) => n.toFixed(1);

/** A minimal Ollama: /api/tags, /api/ps and a streamed /api/chat whose first chunk goes out at once. */
async function fakeOllama() {
  const server = createServer(async (req, res) => {
    for await (const _ of req); // the body is not used
    if (req.url === '/api/tags')
      return res.end(JSON.stringify({ models: [{ name: 'bench', model: 'bench', size: 1, details: {} }] }));
    if (req.url === '/api/ps') return res.end(JSON.stringify({ models: [] }));
    if (req.url === '/api/chat') {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(JSON.stringify({ message: { content: 'first' }, done: false }) + '\n');
      return res.end(JSON.stringify({ message: { content: '' }, done: true }) + '\n');
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function main() {
  const fake = await fakeOllama();
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-bench-qgpt-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_RATE_LIMIT_QGPT: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    TROVE_OLLAMA_URL: fake.url,
  });
  const app = await createApp(config);
  const shutdown = async () => {
    await app.close().catch(() => undefined);
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const db = app.get(Database);
  const index = app.get(SearchIndex);
  const relevant = app.get(RelevantSnippets);
  const offline = app.get(OfflineAnswers);
  const post = (path, body) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  const corpus = new Corpus(42);
  const firstAsset = corpus.asset();
  const first = await (
    await post('/assets/create', {
      asset: {
        application: {
          id: '11111111-1111-4111-8111-111111111111',
          name: 'VS_CODE',
          version: '1.90.0',
          platform: 'LINUX',
          onboarded: true,
          privacy: 'OPEN',
        },
        format: {
          fragment: { string: { raw: firstAsset.text } },
          classification: { generic: firstAsset.generic, specific: firstAsset.specific },
        },
        metadata: { name: firstAsset.name },
      },
    })
  ).json();
  const applicationId = first.formats.iterable[0].application.id;
  const creator = first.creator;
  const pg = config.dialect === 'postgres';
  let loaded = 1;
  async function loadTo(target) {
    while (loaded < target) {
      const n = Math.min(BATCH, target - loaded);
      const batch = Array.from({ length: n }, () => ({ id: randomUUID(), ...corpus.asset() }));
      await db.transaction(async (em) => {
        const now = new Date().toISOString();
        await insertAssets(em, pg, batch, { creator, applicationId, now });
        for (const a of batch) await index.reindex(em, a.id);
      });
      loaded += n;
      if (loaded % 10_000 < BATCH) process.stderr.write(`  loaded ${loaded}/${target}\n`);
    }
  }

  const q = new Corpus(7);
  const question = () => relevanceQuestion(q);
  const rows = [];
  for (const size of SIZES) {
    await loadTo(size);
    for (const answer of [false, true]) {
      const inner = [];
      const http = [];
      let found = 0;
      for (let i = 0; i < QUERIES + 20; i++) {
        const input = { query: question(), options: { database: true, question: answer } };
        const t0 = performance.now();
        const snippets = await relevant.of(input);
        if (answer) offline.answers(input.query, snippets);
        const t1 = performance.now();
        const res = await post('/qgpt/relevance', { ...input, query: question() });
        const body = await res.json();
        const t2 = performance.now();
        if (res.status !== 200) throw new Error(`relevance: ${res.status} ${JSON.stringify(body)}`);
        if (i >= 20) {
          inner.push(t1 - t0);
          http.push(t2 - t1);
          found += body.relevant.iterable.length;
        }
      }
      inner.sort((a, b) => a - b);
      http.sort((a, b) => a - b);
      rows.push({
        size,
        answer,
        e50: percentile(inner, 50),
        e95: percentile(inner, 95),
        p50: percentile(http, 50),
        p95: percentile(http, 95),
        p99: percentile(http, 99),
        found: found / QUERIES,
      });
    }
  }

  // Time to the first chunk: straight from the fake provider, then through ws /qgpt/stream.
  const direct = [];
  for (let i = 0; i < STREAMS; i++) {
    const t0 = performance.now();
    const res = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'bench', messages: [], stream: true }),
    });
    const reader = res.body.getReader();
    await reader.read();
    direct.push(performance.now() - t0);
    await reader.cancel();
  }
  await post('/qgpt/question', { query: 'warm up', model: 'ollama:bench', relevant: { iterable: [] } });
  const ws = new WsClient(`${base.replace('http', 'ws')}/qgpt/stream`);
  await new Promise((r) => ws.once('open', r));
  const conversation = (await (await post('/conversations/create', { type: 'COPILOT', name: 'bench' })).json()).id;
  const streamed = [];
  for (let i = 0; i < STREAMS; i++) {
    const request = `b${i}`;
    const t0 = performance.now();
    let firstAt = 0;
    await new Promise((resolve, reject) => {
      const onMessage = (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.request !== request) return;
        if (frame.status === 'IN-PROGRESS' && !firstAt) firstAt = performance.now();
        if (frame.status === 'FAILED') reject(new Error(frame.errorMessage));
        if (frame.status === 'COMPLETED') {
          ws.off('message', onMessage);
          resolve();
        }
      };
      ws.on('message', onMessage);
      ws.send(
        JSON.stringify({
          question: {
            query: 'q',
            relevant: {
              iterable: [
                { seed: { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 'context' } } } } } },
              ],
            },
            model: 'ollama:bench',
          },
          request,
          conversation,
        }),
      );
    });
    streamed.push(firstAt - t0);
  }
  ws.close();
  direct.sort((a, b) => a - b);
  streamed.sort((a, b) => a - b);

  const out = [];
  out.push(
    `QGPT relevance over generated assets (bench/lib/corpus.js), ${config.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${cpus().length} cores (${cpus()[0].model.trim()}), Node ${process.version}.`,
  );
  out.push(
    'Engine: RelevantSnippets.of (+ OfflineAnswers.answers) in process; HTTP: POST /qgpt/relevance over 127.0.0.1, one at a time.',
  );
  out.push('');
  out.push(
    '| assets | options.question | engine p50 ms | engine p95 ms | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | snippets/query |',
  );
  out.push('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    out.push(
      `| ${r.size.toLocaleString('en-US')} | ${r.answer} | ${fmt(r.e50)} | ${fmt(r.e95)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.found.toFixed(1)} |`,
    );
  out.push('');
  out.push(`Time to the first chunk (${STREAMS} questions, one socket, fake Ollama on 127.0.0.1):`);
  out.push('');
  out.push('| path | p50 ms | p95 ms | p99 ms |');
  out.push('|---|---:|---:|---:|');
  out.push(
    `| fake provider directly (HTTP) | ${fmt(percentile(direct, 50))} | ${fmt(percentile(direct, 95))} | ${fmt(percentile(direct, 99))} |`,
  );
  out.push(
    `| ws /qgpt/stream through Trove (stores the question first) | ${fmt(percentile(streamed, 50))} | ${fmt(percentile(streamed, 95))} | ${fmt(percentile(streamed, 99))} |`,
  );
  out.push(`| overhead (p50 difference) | ${fmt(percentile(streamed, 50) - percentile(direct, 50))} | | |`);
  console.log(out.join('\n'));
  await shutdown();
}

main().catch((error) => {
  console.error(String(error.stack ?? error).slice(0, 2000));
  process.exit(1);
});
