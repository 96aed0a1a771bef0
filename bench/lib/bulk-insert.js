'use strict';
const { randomUUID } = require('node:crypto');
/**
 * Plain multi-row INSERTs, 100 rows a statement, for the rows a benchmark loads but does not
 * measure (assets and formats written straight to their tables, then indexed). `conflict` is an
 * `ON CONFLICT ...` clause when the rows may already exist.
 */
async function insertRows(em, pg, table, columns, rows, conflict = '') {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    let k = 0;
    const values = chunk.map((r) => `(${r.map(() => (pg ? `$${++k}` : '?')).join(', ')})`).join(', ');
    await em.query(`INSERT INTO ${table} (${columns}) VALUES ${values} ${conflict}`, chunk.flat());
  }
}

/**
 * The asset and first-format rows of generated assets (bench/lib/corpus.js), as the create
 * command would write them, minus everything else it does (the benchmark indexes them itself).
 */
async function insertAssets(em, pg, batch, { creator, applicationId, now }) {
  await insertRows(
    em,
    pg,
    'assets',
    'id, name, creator, mechanism, favorited, pseudo, score_manual, score_automatic, created_at, updated_at',
    batch.map((a) => [a.id, a.name, creator, 'MANUAL', false, false, 0, 0, now, now]),
  );
  await insertRows(
    em,
    pg,
    'formats',
    'id, asset_id, position, role, generic, specific, application_id, creator, raw, bytes, created_at, updated_at',
    batch.map((a) => [
      randomUUID(),
      a.id,
      0,
      'BOTH',
      a.generic,
      a.specific,
      applicationId,
      creator,
      a.text,
      Buffer.byteLength(a.text),
      now,
      now,
    ]),
  );
}

module.exports = { insertRows, insertAssets };
