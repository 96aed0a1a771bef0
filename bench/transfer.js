// Whole-store export and import at scale (issue 24: 1,000,000 assets exported in < 2 min and
// imported in < 10 min): writes a Trove export of BENCH_ASSETS generated assets (the corpus of
// bench/search.js, bench/lib/corpus.js; shared tags and websites first, then each asset with its
// format, a description on every other one, its tags and website), imports it into a fresh store
// through StoreImport (as `trove import` and POST /trove/import do), exports it back, and
// reports the times, the rates and the process's peak RSS.
//
//   npm run build && node bench/transfer.js
//
// Env: BENCH_ASSETS (100000), BENCH_TRANSFER_FILE (keep the generated export there and reuse it
//      on the next run), BENCH_MARKDOWN=1 (also the Markdown export), DATABASE_URL (import into
//      PostgreSQL instead of a temporary SQLite directory).
'use strict';
require('reflect-metadata');
const { createHash, randomUUID } = require('node:crypto');
const { once } = require('node:events');
const {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Corpus } = require('./lib/corpus');

const dist = join(__dirname, '..', 'dist', 'src');
const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const mb = (bytes) => `${Math.round(bytes / 1048576)} MB`;

/** Writes the export of `n` generated assets to `path` (through a temporary file). */
async function generate(n, path) {
  const out = createWriteStream(`${path}.tmp`);
  const now = Date.parse('2025-06-01T00:00:00.000Z');
  const appId = randomUUID();
  const creator = randomUUID();
  const counts = {};
  const hash = createHash('sha256');
  let buffer = '';
  let records = 0;
  const emit = async (kind, record) => {
    const line = `${JSON.stringify({ kind, record })}\n`;
    hash.update(line);
    buffer += line;
    counts[kind] = (counts[kind] ?? 0) + 1;
    records++;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  };
  const at = new Date(now).toISOString();
  out.write(
    `${JSON.stringify({ format: 'trove-export', version: 1, exported: at, trove: 'bench/transfer.js', counts: {} })}\n`,
  );
  await emit('application', {
    id: appId,
    name: 'VS_CODE',
    version: '1.90.0',
    platform: 'LINUX',
    onboarded: true,
    privacy: 'OPEN',
    connected_at: null,
    created_at: at,
  });
  // The shared records first (an export lists them before the assets that link to them).
  const tagIds = new Map();
  const websites = new Map();
  const first = new Corpus(7);
  for (let i = 0; i < n; i++) {
    const a = first.asset();
    for (const t of a.tags ?? []) if (!tagIds.has(t)) tagIds.set(t, randomUUID());
    if (a.website && !websites.has(a.website))
      websites.set(a.website, { id: randomUUID(), name: new URL(a.website).hostname });
  }
  for (const [text, id] of [...tagIds].sort((x, y) => (x[1] < y[1] ? -1 : 1))) {
    await emit('tag', { id, text, category: 'UNKNOWN', mechanism: 'MANUAL', created_at: at, updated_at: at });
  }
  for (const [url, w] of [...websites].sort((x, y) => (x[1].id < y[1].id ? -1 : 1))) {
    await emit('website', { id: w.id, url, name: w.name, mechanism: 'MANUAL', created_at: at, updated_at: at });
  }
  const ids = Array.from({ length: n }, () => randomUUID()).sort();
  const corpus = new Corpus(7); // the same assets again
  for (let i = 0; i < n; i++) {
    const a = corpus.asset();
    const id = ids[i];
    const t = new Date(now + i * 1000).toISOString();
    const scores = {
      score_manual: 0,
      score_automatic: 0,
      score_reuse: 0,
      score_update: 0,
      score_reference: 0,
      score_priority: 0,
      score_searched: 0,
    };
    await emit('asset', {
      id,
      name: a.name,
      creator,
      mechanism: 'MANUAL',
      favorited: false,
      pseudo: false,
      ...scores,
      created_at: t,
      updated_at: t,
      deleted_at: null,
    });
    const format = {
      id: randomUUID(),
      asset_id: id,
      position: 0,
      role: 'BOTH',
      generic: a.generic,
      specific: a.specific,
      application_id: appId,
      creator,
    };
    await emit('format', {
      ...format,
      classification_pending: false,
      raw: a.text,
      bytes: Buffer.byteLength(a.text),
      created_at: t,
      updated_at: t,
    });
    if (i % 2 === 0) {
      const text = `About ${a.name.toLowerCase()}: ${a.text.split('\n')[0].slice(0, 80)}`;
      await emit('annotation', {
        id: randomUUID(),
        asset_id: id,
        type: 'DESCRIPTION',
        text,
        mechanism: 'MANUAL',
        created_at: t,
        updated_at: t,
      });
    }
    for (const tag of [...new Set(a.tags ?? [])].sort((x, y) => (tagIds.get(x) < tagIds.get(y) ? -1 : 1))) {
      await emit('asset_tag', { asset_id: id, tag_id: tagIds.get(tag), created_at: t });
    }
    if (a.website) await emit('asset_website', { asset_id: id, website_id: websites.get(a.website).id, created_at: t });
  }
  out.write(buffer);
  out.write(`${JSON.stringify({ kind: 'end', records, counts, sha256: hash.digest('hex'), checksum: '' })}\n`);
  out.end();
  await once(out, 'finish');
  renameSync(`${path}.tmp`, path);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'trove-bench-transfer-'));
  const file = process.env.BENCH_TRANSFER_FILE ?? join(work, 'export.ndjson');
  if (!existsSync(file)) {
    const t = Date.now();
    await generate(ASSETS, file);
    console.log(`generated ${ASSETS} assets: ${mb(statSync(file).size)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const { createApp } = require(join(dist, 'bootstrap'));
  const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
  const { StoreExport } = require(join(dist, 'modules', 'transfer', 'store-export.service'));
  const { StoreImport } = require(join(dist, 'modules', 'transfer', 'store-import.service'));
  const { MarkdownExport } = require(join(dist, 'modules', 'transfer', 'markdown-export.service'));
  const dataDir = join(work, 'store');
  const app = await createApp(
    loadConfig({
      ...process.env,
      TROVE_DATA_DIR: dataDir,
      TROVE_LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.DATABASE_URL ?? '',
    }),
  );
  await app.init();
  const transfer = { import: app.get(StoreImport), export: app.get(StoreExport), markdown: app.get(MarkdownExport) };
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  let last = Date.now();
  const progress = (what) => (done, total) => {
    if (Date.now() - last < 15000) return;
    last = Date.now();
    console.log(`  ${what} ${done}/${total ?? '?'}, rss ${mb(process.memoryUsage().rss)}`);
  };
  try {
    peak = process.memoryUsage().rss;
    let t = Date.now();
    const imported = await transfer.import.importNdjson(createReadStream(file), progress('import'));
    const importS = (Date.now() - t) / 1000;
    console.log(
      `import: ${imported.created.asset} assets (${imported.records} records) in ${importS.toFixed(1)} s, ${Math.round(imported.created.asset / importS)} assets/s; peak RSS ${mb(peak)}`,
    );

    peak = process.memoryUsage().rss;
    t = Date.now();
    const outPath = join(work, 'again.ndjson');
    const out = createWriteStream(outPath);
    const summary = await transfer.export.exportNdjson(out, progress('export'));
    out.end();
    await once(out, 'finish');
    const exportS = (Date.now() - t) / 1000;
    console.log(
      `export: ${summary.counts.asset} assets (${summary.records} records), ${mb(statSync(outPath).size)} in ${exportS.toFixed(1)} s, ` +
        `${Math.round(summary.counts.asset / exportS)} assets/s; peak RSS ${mb(peak)}`,
    );
    if (process.env.BENCH_MARKDOWN === '1') {
      t = Date.now();
      const { files } = await transfer.markdown.exportMarkdown(join(work, 'markdown'));
      console.log(`markdown: ${files} files in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    clearInterval(sampler);
    await app.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
