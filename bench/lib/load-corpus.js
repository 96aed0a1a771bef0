'use strict';
// The corpus of bench/search.js (bench/lib/corpus.js, seed 42) loaded in bulk into a running
// app, in transactions of `batch` assets: asset, format and tag rows by plain multi-row INSERTs
// (bench/lib/bulk-insert.js), websites through AssetWriter, and the index through
// AssetReader.one and SearchIndex.index, exactly what the create command calls.
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { insertAssets, insertRows } = require('./bulk-insert');

/**
 * Loads generated assets into `app` (a created Nest app of dist/) until it holds `target`.
 *   corpus       the generator (bench/lib/corpus.js Corpus), drawn from in order;
 *   loaded       assets already there (counted towards `target`);
 *   creator, applicationId   of the rows written (those of an asset created through the API);
 *   batch        assets per transaction (1000);
 *   readBack     'one': each asset read back by AssetReader.one, as the create command does
 *                (bench/search.js); 'batch': the batch's assets in one AssetReader.liveAggregates
 *                call (500 a statement; the same aggregates, faster for large corpora);
 *   dist         the built app's dist/src (the one `app` was created from; this checkout's by default);
 *   progress     called with (loaded, seconds since the start) about every 10,000 assets.
 * Returns { loaded, seconds, rate } (rate: assets/s of this call, NaN when nothing was loaded).
 */
async function loadCorpus(
  app,
  {
    corpus,
    loaded,
    target,
    creator,
    applicationId,
    batch = 1000,
    readBack = 'one',
    dist = join(__dirname, '..', '..', 'dist', 'src'),
    progress = () => undefined,
  },
) {
  const { Database } = require(join(dist, 'common', 'database', 'database.service'));
  const { SearchIndex } = require(join(dist, 'modules', 'search', 'search-index.service'));
  const { AssetWriter } = require(join(dist, 'modules', 'assets', 'asset.writer'));
  const { AssetReader } = require(join(dist, 'modules', 'assets', 'asset.reader'));
  const db = app.get(Database);
  const index = app.get(SearchIndex);
  const writer = app.get(AssetWriter);
  const reader = app.get(AssetReader);
  const pg = db.dialect === 'postgres';
  const from = loaded;
  const start = performance.now();
  const tagIds = new Map();
  while (loaded < target) {
    const n = Math.min(batch, target - loaded);
    const assets = Array.from({ length: n }, () => ({ id: randomUUID(), ...corpus.asset() }));
    await db.transaction(async (em) => {
      const now = new Date().toISOString();
      // Plain multi-row INSERTs for the asset module's rows (the bench is not measuring them) ...
      const insert = (table, columns, rows, conflict) => insertRows(em, pg, table, columns, rows, conflict);
      await insertAssets(em, pg, assets, { creator, applicationId, now });
      const tagTexts = [...new Set(assets.flatMap((a) => a.tags))].filter((t) => !tagIds.has(t));
      if (tagTexts.length) {
        await insert(
          'tags',
          'id, text, category, mechanism, created_at, updated_at',
          tagTexts.map((t) => [randomUUID(), t, 'UNKNOWN', 'MANUAL', now, now]),
          'ON CONFLICT DO NOTHING',
        );
        for (const row of await em.query(`SELECT id, text FROM tags`)) tagIds.set(row.text, row.id);
      }
      const links = assets.flatMap((a) => a.tags.map((t) => [a.id, tagIds.get(t), now]));
      if (links.length) await insert('asset_tags', 'asset_id, tag_id, created_at', links);
      for (const a of assets) if (a.website) await writer.setWebsites(em, a.id, [{ url: a.website, name: 'docs' }]);
      // ... and the index through exactly what the create command calls (SearchIndex.index of
      // the asset as read back), in the batch's order (the index's newest-first walks follow it).
      if (readBack === 'one') {
        for (const a of assets) await index.index(em, await reader.one(em, a.id), { created: true });
      } else {
        const byId = new Map(
          (
            await reader.liveAggregates(
              em,
              assets.map((a) => a.id),
            )
          ).map((g) => [g.asset.id, g]),
        );
        for (const a of assets) await index.index(em, byId.get(a.id), { created: true });
      }
    });
    loaded += n;
    if (loaded % 10_000 < batch) progress(loaded, (performance.now() - start) / 1000);
  }
  const seconds = (performance.now() - start) / 1000;
  return { loaded, seconds, rate: loaded > from ? (loaded - from) / seconds : NaN };
}

module.exports = { loadCorpus };
