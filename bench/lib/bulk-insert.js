'use strict';
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

module.exports = { insertRows };
