// Recall of agent memory (issue 49), side by side in one run, offline: each memory saved through
// MCP `create_pieces_memory` (sequential, one request at a time: the ingest rate), then every
// question asked of `ask_pieces_ltm` (limit 25, the memory ids of its Sources in order) and of
// `POST /workstream_summaries/search?limit=25`, and of a plain BM25 over the same texts (no
// stemming, no stop words; k1 1.2, b 0.75). R@5, R@10, R@25: the share of a question's answering
// memories among the first k, averaged over questions, overall and by category; with the p50/p95
// latency of ask_pieces_ltm.
//
//   npx nest build && node bench/memory.js
//
// Without BENCH_SET it runs on a set it makes itself (bench/lib/conversations.js, fixed seed).
// BENCH_SET=<file.json> reads another in the same shape: { memories: [{ id, text, time?,
// conversation? }], questions: [{ question, answers: [memory ids], category?, conversation? }] }
// (times ISO-8601: each memory's time as `time` of create_pieces_memory). BENCH_SPLIT=even|odd|all
// keeps the questions of the even or odd conversations (tune on one, report the other; default all).
// BENCH_VERBOSE=1 prints each question's answering memories' places in each route (for the tuning split).
// Env: BENCH_CONVERSATIONS (default 10), DATABASE_URL (PostgreSQL instead of a temporary SQLite file).
//
// BENCH_SCALE=<n> (e.g. 10000, 100000) measures speed at that many memories instead: the synthetic
// memories loaded in bulk (WorkstreamSummaryWriter, 1,000 per transaction), then the p50/p95/p99
// latency of ask_pieces_ltm (without a limit and with limit 25) and of memory search (limit 25),
// BENCH_CALLS questions each (default 200), one at a time.
'use strict';
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { makeConversations } = require('./lib/conversations');
const { percentile } = require('./lib/stats');

const dist = join(__dirname, '..', 'dist', 'src');
const { createApp } = require(join(dist, 'bootstrap'));
const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
const { Database } = require(join(dist, 'common', 'database', 'database.service'));
const { WorkstreamSummaryWriter } = require(join(dist, 'modules', 'assets', 'workstream-summary.writer'));

const KS = [5, 10, 25];
const DEPTH = 25;

/** A plain BM25 (the baseline): lower-cased runs of letters and digits, no stemming, no stop words. */
function bm25(docs) {
  const tokens = (s) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const k1 = 1.2;
  const b = 0.75;
  const postings = new Map();
  const lengths = docs.map((d, i) => {
    const tf = new Map();
    const words = tokens(d.text);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, n] of tf) {
      if (!postings.has(w)) postings.set(w, []);
      postings.get(w).push([i, n]);
    }
    return words.length;
  });
  const avg = lengths.reduce((a, n) => a + n, 0) / Math.max(1, docs.length);
  const N = docs.length;
  return (query, k) => {
    const scores = new Map();
    for (const w of new Set(tokens(query))) {
      const list = postings.get(w);
      if (!list) continue;
      const idf = Math.log(1 + (N - list.length + 0.5) / (list.length + 0.5));
      for (const [i, tf] of list)
        scores.set(i, (scores.get(i) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[i]) / avg)));
    }
    return [...scores.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, k)
      .map(([i]) => docs[i].id);
  };
}

function recall(ranked, answers, k) {
  const top = new Set(ranked.slice(0, k));
  return answers.filter((a) => top.has(a)).length / answers.length;
}

async function main() {
  const set = process.env.BENCH_SET
    ? JSON.parse(readFileSync(process.env.BENCH_SET, 'utf8'))
    : makeConversations({ conversations: Number(process.env.BENCH_CONVERSATIONS ?? 10) });
  const split = process.env.BENCH_SPLIT ?? 'all';
  const questions = set.questions.filter(
    (q) => split === 'all' || (q.conversation ?? 0) % 2 === (split === 'even' ? 0 : 1),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-bench-memory-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_RATE_LIMIT_QGPT: '0',
    TROVE_RATE_LIMIT_MCP: '0',
    // The bulk load of BENCH_SCALE holds the event loop: no 503 for it afterwards.
    TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
    TROVE_DATA_DIR: dataDir,
    TROVE_DEFAULT_MODEL: '',
    TROVE_EMBEDDING_MODEL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const client = new Client({ name: 'bench-memory', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/model_context_protocol/2025-03-26/mcp`)));
  try {
    if (process.env.BENCH_SCALE) return await scale(app, client, base, Number(process.env.BENCH_SCALE));
    // Ingest: one memory per turn, in order, one request at a time.
    const idOf = new Map();
    const started = performance.now();
    for (const m of set.memories) {
      const res = await client.callTool({
        name: 'create_pieces_memory',
        arguments: {
          summary_description: `Turn ${m.id}`,
          summary: m.text,
          ...(m.time ? { time: m.time } : {}),
          ...(m.conversation !== undefined ? { project: `conversation ${m.conversation}` } : {}),
        },
      });
      const text = res.content.map((c) => c.text).join('');
      const id = /\(id ([0-9a-f-]{36})\)/.exec(text)?.[1];
      if (res.isError || !id) throw new Error(`create_pieces_memory failed: ${text}`);
      idOf.set(id, m.id);
    }
    const ingestSeconds = (performance.now() - started) / 1000;

    const baseline = bm25(set.memories);
    const routes = {
      ask_pieces_ltm: async (q) => {
        const res = await client.callTool({
          name: 'ask_pieces_ltm',
          arguments: { question: q.question, chat_llm: 'bench', limit: DEPTH },
        });
        const text = res.content.map((c) => c.text).join('');
        const sources = text.split('\n**Sources**\n')[1] ?? '';
        return [...sources.matchAll(/trove:\/\/memories\/([0-9a-f-]{36})/g)].map((m) => idOf.get(m[1]));
      },
      'POST /workstream_summaries/search': async (q) => {
        const res = await fetch(`${base}/workstream_summaries/search?limit=${DEPTH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ engines: { iterable: [{ query: q.question }] } }),
        });
        return (await res.json()).iterable.map((h) => idOf.get(h.identifier));
      },
      'plain BM25 (no stemming)': async (q) => baseline(q.question, DEPTH),
    };
    const results = {};
    const latency = {};
    for (const [name, run] of Object.entries(routes)) {
      results[name] = [];
      latency[name] = [];
      for (const q of questions) {
        const t = performance.now();
        const ranked = await run(q);
        latency[name].push(performance.now() - t);
        results[name].push({ category: q.category ?? 'all', r: KS.map((k) => recall(ranked, q.answers, k)) });
        if (process.env.BENCH_VERBOSE)
          console.log(
            `${name} | ${q.category} | ${q.question} | ranks ${q.answers.map((a) => ranked.indexOf(a) + 1 || '-').join(',')}`,
          );
      }
    }
    const categories = ['all', ...new Set(questions.map((q) => q.category ?? 'all'))].filter(
      (c, i, a) => a.indexOf(c) === i,
    );
    console.log(
      `memory recall: ${set.memories.length} memories, ${questions.length} questions (split ${split}; ${process.env.BENCH_SET ? process.env.BENCH_SET : 'synthetic set, bench/lib/conversations.js'})`,
    );
    console.log(
      `ingest through MCP create_pieces_memory (sequential): ${(set.memories.length / ingestSeconds).toFixed(1)} memories/s`,
    );
    for (const category of categories) {
      console.log(
        `\n${category} (${category === 'all' ? questions.length : questions.filter((q) => q.category === category).length} questions)`,
      );
      console.log('| route | R@5 | R@10 | R@25 |\n|---|---|---|---|');
      for (const name of Object.keys(routes)) {
        const rows = results[name].filter((x) => category === 'all' || x.category === category);
        const mean = KS.map((_, j) => rows.reduce((a, x) => a + x.r[j], 0) / Math.max(1, rows.length));
        console.log(`| ${name} | ${mean.map((v) => v.toFixed(3)).join(' | ')} |`);
      }
    }
    const sorted = [...latency.ask_pieces_ltm].sort((a, b) => a - b);
    console.log(
      `\nask_pieces_ltm latency (limit ${DEPTH}): p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`,
    );
  } finally {
    await client.close().catch(() => undefined);
    await app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Speed at `size` memories: bulk-loaded, then ask_pieces_ltm and memory search timed. */
async function scale(app, client, base, size) {
  const per = 240; // memories of one synthetic conversation (10 sessions of 24 turns)
  const set = makeConversations({ conversations: Math.ceil(size / per) });
  const memories = set.memories.slice(0, size);
  const db = app.get(Database);
  const writer = app.get(WorkstreamSummaryWriter);
  const { randomUUID } = require('node:crypto');
  const t0 = performance.now();
  for (let i = 0; i < memories.length; i += 1000) {
    const part = memories.slice(i, i + 1000);
    await db.transaction(async (em) => {
      for (const m of part) {
        await writer.insert(
          em,
          {
            id: randomUUID(),
            name: `Turn ${m.id}`,
            description: null,
            text: m.text,
            project: `conversation ${m.conversation}`,
            files: [],
            links: [],
            source: null,
            createdAt: new Date().toISOString(),
            aboutAt: m.time,
          },
          true,
        );
      }
    });
  }
  console.log(
    `speed at ${memories.length} memories (loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${db.dialect})`,
  );
  const calls = Number(process.env.BENCH_CALLS ?? 200);
  const questions = Array.from({ length: calls }, (_, i) => set.questions[(i * 7919) % set.questions.length].question);
  const timed = async (name, run) => {
    for (const q of questions.slice(0, 10)) await run(q); // warm-up
    const times = [];
    for (const q of questions) {
      const t = performance.now();
      await run(q);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} | ${[50, 95, 99].map((p) => percentile(times, p).toFixed(1)).join(' | ')} |`);
  };
  console.log('| call | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|');
  const ask = (limit) => (q) =>
    client.callTool({
      name: 'ask_pieces_ltm',
      arguments: { question: q, chat_llm: 'bench', ...(limit ? { limit } : {}) },
    });
  await timed('ask_pieces_ltm', ask());
  await timed('ask_pieces_ltm, limit 25', ask(25));
  await timed('ask_pieces_ltm, limit 50', ask(50));
  await timed('POST /workstream_summaries/search?limit=25', (q) =>
    fetch(`${base}/workstream_summaries/search?limit=25`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ engines: { iterable: [{ query: q }] } }),
    }).then((r) => r.json()),
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
