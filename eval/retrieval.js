// Retrieval quality of Trove's search endpoints, black box over HTTP, on the held-out set of
// (docstring, function) pairs in eval/data/nl-code-pairs.jsonl (built by ml/retrieval/extract_pairs.py).
//
//   npx nest build && node eval/retrieval.js [--limit N] [--endpoints search,relevance,ncs]
//                                            [--typos N] [--out eval/results/retrieval.json] [--data FILE]
//                                            [--server DIR]   (a checkout whose dist/ to boot; default: this one)
//
// 1. Boots the built server in process (as bench/qgpt.js does: a temporary SQLite data dir, rate
//    limits off, port 0) and saves every pair's code (docstring removed) as an asset with
//    POST /assets/create (a SeededAsset: format.fragment.string.raw, nothing else: no name, no
//    language; Trove names, describes and classifies it itself, as for the Pieces CLI).
// 2. NL queries: each pair's docstring (first sentence/paragraph) on
//      search     GET  /assets/search?query=...        (iterable[].identifier, in the order served)
//      relevance  POST /qgpt/relevance {query, options: {database: true}}   (relevant.iterable[].asset.id)
//      ncs        GET  /search/neural_code?query=...   (iterable[].identifier)
//    MRR@10 (0 when absent from the top 10), R@1, R@3, R@10, overall and per language.
// 3. Identifier typos: for a fixed sample of pairs whose function name has >= 5 characters, the name
//    with one random edit (insertion, deletion, substitution, adjacent transposition; never the
//    identical string), queried alone; top-3 hit rate per edit type, and the unmodified name as control.
//    A hit is the pair's own asset; where several pairs share a function name, any of their assets counts.
// 4. Prints Markdown tables; writes JSON to --out. Deterministic (fixed seeds, sequential requests).
'use strict';
const { mkdtempSync, rmSync, readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join, dirname, resolve } = require('node:path');

const ROOT = join(__dirname, '..');
const ENDPOINTS = ['search', 'relevance', 'ncs'];
const EDITS = ['insertion', 'deletion', 'substitution', 'transposition'];
const TOP = 10;

function parseArgs(argv) {
  const args = {
    limit: 0,
    endpoints: ENDPOINTS,
    out: join(ROOT, 'eval', 'results', 'retrieval.json'),
    data: join(ROOT, 'eval', 'data', 'nl-code-pairs.jsonl'),
    typos: 400,
    seed: 20261127,
    server: ROOT,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [key, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (key === '--limit') args.limit = Number(value());
    else if (key === '--endpoints')
      args.endpoints = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (key === '--out') args.out = resolve(value());
    else if (key === '--data') args.data = resolve(value());
    else if (key === '--typos') args.typos = Number(value());
    else if (key === '--seed') args.seed = Number(value());
    else if (key === '--server') args.server = resolve(value());
    else if (key === '--help' || key === '-h') {
      console.log(
        readFileSync(__filename, 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('//'))
          .map((l) => l.slice(3))
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  for (const e of args.endpoints)
    if (!ENDPOINTS.includes(e)) throw new Error(`unknown endpoint ${e} (use ${ENDPOINTS.join(',')})`);
  return args;
}

/** mulberry32, the benches' seeded PRNG. */
const rng = require('../bench/lib/corpus').mulberry32;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit of `kind` on `word` that changes it; letters only are inserted / substituted. */
function typo(word, kind, rand) {
  const int = (n) => Math.floor(rand() * n);
  const letterAt = (i) => /[a-zA-Z]/.test(word[i]);
  for (let attempt = 0; attempt < 100; attempt++) {
    let out;
    if (kind === 'insertion') {
      const i = int(word.length + 1);
      out = word.slice(0, i) + LETTERS[int(26)] + word.slice(i);
    } else if (kind === 'deletion') {
      const i = int(word.length);
      if (!letterAt(i)) continue;
      out = word.slice(0, i) + word.slice(i + 1);
    } else if (kind === 'substitution') {
      const i = int(word.length);
      if (!letterAt(i)) continue;
      const c = LETTERS[int(26)];
      out = word.slice(0, i) + (word[i] === word[i].toUpperCase() ? c.toUpperCase() : c) + word.slice(i + 1);
    } else {
      const i = int(word.length - 1);
      if (!letterAt(i) || !letterAt(i + 1)) continue;
      out = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    }
    if (out !== word) return out;
  }
  return null;
}

function shuffle(items, rand) {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const APPLICATION = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'VS_CODE',
  version: '1.90.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

/**
 * The server runs in this process: its random UUIDs (asset ids, which break ties in the rankings)
 * come from a seeded generator, so that two runs rank identically. Requests are sequential.
 */
function seedUuids(seed) {
  const crypto = require('node:crypto');
  const rand = rng(seed);
  const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  crypto.randomUUID = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(3)}-${hex(12)}`;
}

async function boot(server) {
  const dist = join(server, 'dist', 'src');
  let createApp, loadConfig;
  try {
    ({ createApp } = require(join(dist, 'bootstrap')));
    ({ loadConfig } = require(join(dist, 'common', 'config', 'app-config')));
  } catch (error) {
    throw new Error(`cannot load the built server from ${dist} (run \`npx nest build\` first): ${error.message}`, {
      cause: error,
    });
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-eval-retrieval-'));
  let app;
  const cleanup = async () => {
    if (app) await app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig({
      ...process.env,
      TROVE_LOG_LEVEL: 'warn',
      TROVE_RATE_LIMIT: '0',
      TROVE_RATE_LIMIT_QGPT: '0',
      TROVE_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
    });
    app = await createApp(config);
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { base: `http://127.0.0.1:${app.getHttpServer().address().port}`, cleanup };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let pairs = readFileSync(args.data, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  if (args.limit > 0)
    pairs = shuffle(pairs, rng(args.seed))
      .slice(0, args.limit)
      .sort((a, b) => (a.id < b.id ? -1 : 1));

  const t0 = performance.now();
  seedUuids(args.seed);
  const { base, cleanup } = await boot(args.server);
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const request = async (method, path, body) => {
      if (interrupted) throw new Error('interrupted');
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(base + path, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        if (res.status === 503 && attempt < 5) {
          await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
          continue;
        }
        if (res.status >= 300) throw new Error(`${method} ${path.slice(0, 120)}: ${res.status} ${text.slice(0, 300)}`);
        return JSON.parse(text);
      }
    };

    // 1. Load, in a seeded shuffled order: the search index favours recent assets (its word lists
    // rank only the newest matches), so the file's order (by language) must not be the age order.
    const assetOf = new Map();
    const pairOf = new Map();
    const ageOf = new Map(); // 0: created first (oldest) .. 3: created last (newest), by quarter
    const loadOrder = shuffle(pairs, rng(args.seed ^ 0x10ad));
    for (const [i, p] of loadOrder.entries()) {
      ageOf.set(p.id, Math.min(3, Math.floor((4 * i) / loadOrder.length)));
      const asset = await request('POST', '/assets/create?transferables=false', {
        asset: { application: APPLICATION, format: { fragment: { string: { raw: p.code } } } },
      });
      assetOf.set(p.id, asset.id);
      pairOf.set(asset.id, p);
      if ((i + 1) % 200 === 0) process.stderr.write(`  created ${i + 1}/${pairs.length}\n`);
    }
    const tLoaded = performance.now();

    const q = encodeURIComponent;
    // Ranked distinct asset ids (relevance answers passages: up to two of one asset, at most five in all).
    const distinct = (ids) => [...new Set(ids.filter(Boolean))];
    const rankers = {
      search: async (text) =>
        distinct(
          (await request('GET', `/assets/search?query=${q(text)}&transferables=false`)).iterable.map(
            (h) => h.identifier,
          ),
        ),
      relevance: async (text) =>
        distinct(
          (
            await request('POST', '/qgpt/relevance', { query: text, options: { database: true } })
          ).relevant.iterable.map((r) => r.asset?.id ?? null),
        ),
      ncs: async (text) =>
        distinct((await request('GET', `/search/neural_code?query=${q(text)}`)).iterable.map((h) => h.identifier)),
    };
    const returned = Object.fromEntries(args.endpoints.map((e) => [e, 0]));

    // Wait until the index has caught up: the last asset is found by its own function name everywhere.
    const last = loadOrder[loadOrder.length - 1];
    for (const e of args.endpoints) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ids = await rankers[e](last.symbol).catch(() => []);
        if (ids.includes(assetOf.get(last.id))) break;
        if (Date.now() > deadline) {
          process.stderr.write(
            `  warning: ${e} does not find the last asset by "${last.symbol}" after 60 s; going on\n`,
          );
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }

    // 2. NL queries.
    const newStats = () => ({ n: 0, mrr: 0, r1: 0, r3: 0, r10: 0 });
    const add = (s, rank) => {
      s.n += 1;
      if (rank > 0 && rank <= TOP) s.mrr += 1 / rank;
      if (rank === 1) s.r1 += 1;
      if (rank > 0 && rank <= 3) s.r3 += 1;
      if (rank > 0 && rank <= TOP) s.r10 += 1;
    };
    const nl = {};
    const perQuery = [];
    const latency = {};
    for (const e of args.endpoints) {
      nl[e] = { overall: newStats(), byLang: {}, byAge: {} };
      latency[e] = [];
    }
    for (const [i, p] of pairs.entries()) {
      const row = { id: p.id, lang: p.lang, createdQuarter: ageOf.get(p.id), ranks: {} };
      for (const e of args.endpoints) {
        const t = performance.now();
        const ids = await rankers[e](p.query);
        latency[e].push(performance.now() - t);
        returned[e] += ids.length;
        const rank = ids.indexOf(assetOf.get(p.id)) + 1; // 0: absent
        row.ranks[e] = rank;
        add(nl[e].overall, rank);
        add((nl[e].byLang[p.lang] ??= newStats()), rank);
        add((nl[e].byAge[ageOf.get(p.id)] ??= newStats()), rank);
      }
      perQuery.push(row);
      if ((i + 1) % 200 === 0) process.stderr.write(`  queried ${i + 1}/${pairs.length}\n`);
    }
    const tNl = performance.now();

    // 3. Identifier typos.
    const rand = rng(args.seed ^ 0x5eed);
    const bySymbol = new Map();
    for (const p of pairs) {
      if (!bySymbol.has(p.symbol)) bySymbol.set(p.symbol, new Set());
      bySymbol.get(p.symbol).add(assetOf.get(p.id));
    }
    // Client-side approximation of the index vocabulary: the words of all the code, identifiers
    // split at case changes, digits and underscores, lower-cased. A typo'd name is "real-word" when
    // it, or every one of its parts, is such a word: the index then treats it as known.
    const splitWords = (text) =>
      text
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(/[^A-Za-z0-9]+|_/)
        .filter(Boolean)
        .map((w) => w.toLowerCase());
    const vocab = new Set();
    for (const p of pairs) {
      for (const w of p.code.split(/[^A-Za-z0-9_]+/)) if (w) vocab.add(w.toLowerCase());
      for (const w of splitWords(p.code)) vocab.add(w);
    }
    const realWord = (word) => {
      const parts = splitWords(word);
      return vocab.has(word.toLowerCase()) || (parts.length > 1 && parts.every((w) => vocab.has(w)));
    };
    const eligible = pairs.filter((p) => p.symbol.length >= 5);
    const sample = shuffle(eligible, rand).slice(0, Math.min(args.typos, eligible.length));
    const typoCases = [];
    for (const [i, p] of sample.entries()) {
      const kind = EDITS[i % EDITS.length];
      const edited = typo(p.symbol, kind, rand);
      if (edited)
        typoCases.push({ id: p.id, lang: p.lang, symbol: p.symbol, kind, query: edited, realWord: realWord(edited) });
    }
    const typoStats = {};
    const controlStats = {};
    const typoMisses = {};
    for (const e of args.endpoints) {
      typoStats[e] = Object.fromEntries(
        [...EDITS, 'all', 'realWord', 'unknownWord'].map((k) => [k, { n: 0, hit3: 0, hit1: 0 }]),
      );
      controlStats[e] = { n: 0, hit3: 0, hit1: 0 };
      typoMisses[e] = [];
    }
    const hitRank = (ids, want) => {
      const i = ids.findIndex((id) => want.has(id));
      return i + 1;
    };
    const controlDone = new Set();
    for (const c of typoCases) {
      const want = bySymbol.get(c.symbol);
      for (const e of args.endpoints) {
        const rank = hitRank(await rankers[e](c.query), want);
        c.ranks = { ...(c.ranks ?? {}), [e]: rank };
        for (const k of [c.kind, 'all', c.realWord ? 'realWord' : 'unknownWord']) {
          typoStats[e][k].n += 1;
          if (rank > 0 && rank <= 3) typoStats[e][k].hit3 += 1;
          if (rank === 1) typoStats[e][k].hit1 += 1;
        }
        if (!(rank > 0 && rank <= 3))
          typoMisses[e].push({ symbol: c.symbol, query: c.query, kind: c.kind, realWord: c.realWord, rank });
        if (!controlDone.has(`${e}:${c.id}`)) {
          controlDone.add(`${e}:${c.id}`);
          const r0 = hitRank(await rankers[e](c.symbol), want);
          controlStats[e].n += 1;
          if (r0 > 0 && r0 <= 3) controlStats[e].hit3 += 1;
          if (r0 === 1) controlStats[e].hit1 += 1;
        }
      }
    }
    const tEnd = performance.now();

    // 4. Report.
    const fin = (s) => ({
      n: s.n,
      mrr: s.n ? s.mrr / s.n : 0,
      r1: s.n ? s.r1 / s.n : 0,
      r3: s.n ? s.r3 / s.n : 0,
      r10: s.n ? s.r10 / s.n : 0,
    });
    const rate = (s) => ({ n: s.n, top3: s.n ? s.hit3 / s.n : 0, top1: s.n ? s.hit1 / s.n : 0 });
    const langs = [...new Set(pairs.map((p) => p.lang))].sort();
    const pct = (x) => (100 * x).toFixed(1);
    const med = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length ? s[Math.floor(s.length / 2)] : 0;
    };
    const result = {
      generated: new Date().toISOString(),
      data: args.data.startsWith(ROOT) ? args.data.slice(ROOT.length + 1) : args.data,
      pairs: pairs.length,
      packages: new Set(pairs.map((p) => p.package)).size,
      pairsByLang: Object.fromEntries(langs.map((l) => [l, pairs.filter((p) => p.lang === l).length])),
      seed: args.seed,
      server: args.server,
      machine: { cores: cpus().length, cpu: cpus()[0]?.model.trim(), node: process.version },
      seconds: {
        load: (tLoaded - t0) / 1000,
        nl: (tNl - tLoaded) / 1000,
        typos: (tEnd - tNl) / 1000,
        total: (tEnd - t0) / 1000,
      },
      nl: Object.fromEntries(
        args.endpoints.map((e) => [
          e,
          {
            overall: fin(nl[e].overall),
            byLang: Object.fromEntries(langs.filter((l) => nl[e].byLang[l]).map((l) => [l, fin(nl[e].byLang[l])])),
            byCreatedQuarter: Object.fromEntries(
              [0, 1, 2, 3].filter((a) => nl[e].byAge[a]).map((a) => [a, fin(nl[e].byAge[a])]),
            ),
            medianMs: med(latency[e]),
            meanResults: pairs.length ? returned[e] / pairs.length : 0,
          },
        ]),
      ),
      typos: {
        cases: typoCases.length,
        realWordCases: typoCases.filter((c) => c.realWord).length,
        list: typoCases,
        byEndpoint: Object.fromEntries(
          args.endpoints.map((e) => [
            e,
            {
              control: rate(controlStats[e]),
              ...Object.fromEntries(
                [...EDITS, 'all', 'realWord', 'unknownWord'].map((k) => [k, rate(typoStats[e][k])]),
              ),
              misses: typoMisses[e],
            },
          ]),
        ),
      },
      perQuery,
    };

    const out = [];
    out.push(
      `Retrieval on ${args.data.startsWith(ROOT) ? args.data.slice(ROOT.length + 1) : args.data}: ${pairs.length} pairs (${langs.map((l) => `${l} ${result.pairsByLang[l]}`).join(', ')}) from ${result.packages} packages; ${cpus().length} cores, Node ${process.version}; ${result.seconds.total.toFixed(0)} s.`,
    );
    out.push('');
    out.push('NL query (docstring) -> its function, among all the pairs:');
    out.push('');
    out.push('| endpoint | lang | n | MRR@10 | R@1 | R@3 | R@10 | median ms | assets returned (mean) |');
    out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const e of args.endpoints) {
      const o = result.nl[e].overall;
      out.push(
        `| ${e} | all | ${o.n} | ${o.mrr.toFixed(3)} | ${pct(o.r1)} | ${pct(o.r3)} | ${pct(o.r10)} | ${result.nl[e].medianMs.toFixed(1)} | ${result.nl[e].meanResults.toFixed(1)} |`,
      );
      if (langs.length > 1)
        for (const l of langs) {
          const s = result.nl[e].byLang[l];
          if (s)
            out.push(
              `| ${e} | ${l} | ${s.n} | ${s.mrr.toFixed(3)} | ${pct(s.r1)} | ${pct(s.r3)} | ${pct(s.r10)} | | |`,
            );
        }
    }
    out.push('');
    out.push('R@10 of the NL queries by when the target asset was created (quarters of the load order, oldest first):');
    out.push('');
    out.push('| endpoint | 1st (oldest) | 2nd | 3rd | 4th (newest) |');
    out.push('|---|---:|---:|---:|---:|');
    for (const e of args.endpoints)
      out.push(
        `| ${e} | ${[0, 1, 2, 3].map((a) => (result.nl[e].byCreatedQuarter[a] ? pct(result.nl[e].byCreatedQuarter[a].r10) : '')).join(' | ')} |`,
      );
    out.push('');
    out.push(
      `Identifier alone (${typoCases.length} function names of >= 5 characters, one edit each; top-3 hit rate %, top-1 in brackets):`,
    );
    out.push('');
    const nReal = result.typos.realWordCases;
    out.push(
      `| endpoint | control (exact name) | ${EDITS.join(' | ')} | all typos | typo is a known word (${nReal}) | typo is unknown (${typoCases.length - nReal}) |`,
    );
    out.push(`|---|---:|${EDITS.map(() => '---:').join('|')}|---:|---:|---:|`);
    for (const e of args.endpoints) {
      const t = result.typos.byEndpoint[e];
      const cell = (s) => `${pct(s.top3)} (${pct(s.top1)})`;
      out.push(
        `| ${e} | ${cell(t.control)} | ${EDITS.map((k) => cell(t[k])).join(' | ')} | ${cell(t.all)} | ${cell(t.realWord)} | ${cell(t.unknownWord)} |`,
      );
    }
    console.log(out.join('\n'));
    result.markdown = out.join('\n');

    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(args.out, JSON.stringify(result, null, 1) + '\n');
    process.stderr.write(`wrote ${args.out}\n`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(String(error.stack ?? error).slice(0, 2000));
    process.exit(1);
  },
);
