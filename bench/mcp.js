// MCP tool calls at scale: the official MCP TypeScript SDK client against Trove with 10,000
// generated snippets (bench/lib/corpus.js, fixed seed, bulk-loaded as bench/search.js does) and
// 1,000 memories, over both transports: latency p50/p95/p99 of each tool call, sequential
// (one agent), and the SSE session's POSTs relayed through a second instance when asked.
//
//   npx nest build && node bench/mcp.js
//
// Env: BENCH_SIZE (snippets, default 10000), BENCH_CALLS (timed calls per tool and transport,
//      default 200), DATABASE_URL (PostgreSQL instead of a temporary SQLite file).
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomUUID } = require('node:crypto');
const { Corpus, NOUNS, ADJS, VERBS } = require('./lib/corpus');
const { percentile } = require('./lib/stats');
const { insertAssets } = require('./lib/bulk-insert');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { SSEClientTransport } = require('@modelcontextprotocol/sdk/client/sse.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const dist = join(__dirname, '..', 'dist', 'src');
const { createApp } = require(join(dist, 'bootstrap'));
const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
const { Database } = require(join(dist, 'common', 'database', 'database.service'));
const { SearchIndex } = require(join(dist, 'modules', 'search', 'search-index.service'));

const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const MEMORIES = 1000;
const BATCH = 1000;
const fmt = (n) => n.toFixed(1);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-bench-mcp-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_RATE_LIMIT_QGPT: '0',
    TROVE_RATE_LIMIT_MCP: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL ?? '',
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const shutdown = async () => {
    await app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const post = (path, body) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  // The corpus, as bench/qgpt.js loads it.
  const corpus = new Corpus(42);
  const firstAsset = corpus.asset();
  const first = await (
    await post('/assets/create', {
      asset: {
        format: {
          fragment: { string: { raw: firstAsset.text } },
          classification: { generic: firstAsset.generic, specific: firstAsset.specific },
        },
        metadata: { name: firstAsset.name },
      },
    })
  ).json();
  const db = app.get(Database);
  const index = app.get(SearchIndex);
  const pg = config.dialect === 'postgres';
  const ids = [first.id];
  for (let loaded = 1; loaded < SIZE;) {
    const n = Math.min(BATCH, SIZE - loaded);
    const batch = Array.from({ length: n }, () => ({ id: randomUUID(), ...corpus.asset() }));
    await db.transaction(async (em) => {
      await insertAssets(em, pg, batch, {
        creator: first.creator,
        applicationId: first.formats.iterable[0].application.id,
        now: new Date().toISOString(),
      });
      for (const a of batch) await index.reindex(em, a.id);
    });
    ids.push(...batch.map((a) => a.id));
    loaded += n;
  }
  const q = new Corpus(7);
  const phrase = () => `${q.pick(ADJS)} ${q.pick(NOUNS)} ${q.pick(NOUNS)}`;
  const question = () => `How do I ${q.pick(VERBS)} the ${phrase()}?`;

  const connect = async (kind) => {
    const transport =
      kind === 'sse'
        ? new SSEClientTransport(new URL(`${base}/model_context_protocol/2024-11-05/sse`))
        : new StreamableHTTPClientTransport(new URL(`${base}/model_context_protocol/2025-03-26/mcp`));
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };
  const seeding = await connect('http');
  for (let i = 0; i < MEMORIES; i++) {
    await seeding.callTool({
      name: 'create_pieces_memory',
      arguments: {
        summary_description: `Worked on the ${phrase()}`,
        summary: `${question()} We changed the ${phrase()} and the ${phrase()}.`,
        project: `project-${i % 20}`,
      },
    });
  }
  await seeding.close();
  process.stderr.write(`loaded ${SIZE} snippets and ${MEMORIES} memories\n`);

  const tools = {
    search_snippets: () => ({ query: phrase() }),
    get_snippet: () => ({ id: q.pick(ids) }),
    ask_pieces_ltm: () => ({ question: question(), chat_llm: 'bench', topics: [q.pick(NOUNS)] }),
    create_pieces_memory: () => ({ summary_description: `Bench ${phrase()}`, summary: `${question()} Done.` }),
    list_conversations: () => ({}),
  };
  const rows = [];
  for (const kind of ['http', 'sse']) {
    const client = await connect(kind);
    for (const [name, args] of Object.entries(tools)) {
      const times = [];
      for (let i = 0; i < CALLS + 10; i++) {
        const t0 = performance.now();
        const result = await client.callTool({ name, arguments: args() });
        const t1 = performance.now();
        if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
        if (i >= 10) times.push(t1 - t0);
      }
      times.sort((a, b) => a - b);
      rows.push({ kind, name, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) });
    }
    await client.close();
  }
  console.log(
    `\nMCP tool calls, ${SIZE} snippets + ${MEMORIES}+ memories, ${config.dialect}, ${CALLS} sequential calls each (ms):\n`,
  );
  console.log('| transport | tool | p50 | p95 | p99 |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.kind === 'sse' ? 'SSE' : 'Streamable HTTP'} | ${r.name} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} |`,
    );
  await shutdown();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
