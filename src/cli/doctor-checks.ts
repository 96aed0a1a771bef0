import type { Client } from 'pg';
import { ident } from './digest';
import { SqliteFile } from './store';

/**
 * What `trove doctor` checks, read-only, in one snapshot of the store (a read transaction).
 *
 * The doctor is the one piece of code outside the modules that looks at the schema as a whole,
 * as the migrations do: the relations it checks come from the database's own catalog (every
 * foreign key), and the few it must know (the search index against the assets: the index has no
 * foreign keys, it is a projection) are declared in INDEX below, next to what each finding means.
 */

/** One problem found: a name an operator can search for, how many rows, a few of them. */
export interface Finding {
  check: 'integrity' | 'foreign-keys' | 'search-index';
  problem: string;
  count: number;
  examples: string[];
  /** Asset ids `--fix` may reindex (search index findings about assets). */
  assets?: string[];
  /** SQLite: `--fix` may recount the indexed documents (search_stats) from their table. */
  recount?: boolean;
}

/** A check that passed, with what it looked at. */
export interface Passed {
  check: string;
  detail: string;
}

export interface Report {
  findings: Finding[];
  passed: Passed[];
  notes: string[];
}

/** The queries the checks run: SQLite (node-sqlite3) or PostgreSQL (pg), no parameters. */
export interface CheckDb {
  dialect: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(sql: string): Promise<T[]>;
}

export function sqliteCheckDb(db: SqliteFile): CheckDb {
  return { dialect: 'sqlite', all: (sql) => db.all(sql) };
}

export function postgresCheckDb(client: Client): CheckDb {
  return { dialect: 'postgres', all: async (sql) => (await client.query(sql)).rows };
}

/** A table and the column that names an asset in it. */
interface AssetColumn {
  table: string;
  column: string;
}

/**
 * The search index (search module) is a projection of the assets (assets module), written in the
 * assets' own transactions (docs/ARCHITECTURE.md): one document per live asset, its tags, and on
 * SQLite two contentless FTS5 tables whose rowids are the documents' `doc_id`.
 */
const INDEX = {
  assets: { table: 'assets', column: 'id', live: 'deleted_at IS NULL' },
  documents: { table: 'search_documents', column: 'asset_id', docId: 'doc_id' } satisfies AssetColumn & {
    docId: string;
  },
  tags: { table: 'search_tags', column: 'asset_id' } satisfies AssetColumn,
  /** Each live, non-pseudo asset's vector in the offline code embedding (none for an asset with no known term). */
  vectors: { table: 'search_vectors', column: 'asset_id' } satisfies AssetColumn,
  /** SQLite only: the full-text tables, rowid = documents.doc_id. */
  fullText: [
    { table: 'search_words', what: 'word index' },
    { table: 'search_trigrams', what: 'substring index' },
  ],
  /** SQLite only: rows staged for the full-text tables, moved there before each COMMIT; never left over. */
  staged: 'search_staged',
  /** SQLite only: the number of documents, kept by triggers (relevance's idf reads it). */
  stats: { table: 'search_stats', column: 'documents' },
};

/** SQLite: the statement `doctor --fix` recounts the search documents with (see INDEX.stats). */
export const RECOUNT_SEARCH_DOCUMENTS = `INSERT OR REPLACE INTO ${ident(INDEX.stats.table)} (id, ${ident(INDEX.stats.column)}) SELECT 1, COUNT(*) FROM ${ident(INDEX.documents.table)}`;

/** How many examples a finding lists. */
const EXAMPLES = 3;

async function countAndExamples(
  db: CheckDb,
  from: string,
  example: string,
): Promise<{ count: number; examples: string[]; all: string[] }> {
  const [{ n }] = await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n ${from}`);
  const count = Number(n);
  if (count === 0) return { count, examples: [], all: [] };
  const rows = await db.all<{ v: unknown }>(`SELECT ${example} AS v ${from} LIMIT 10000`);
  const all = rows.map((row) => String(row.v));
  return { count, examples: all.slice(0, EXAMPLES), all };
}

/** SQLite: PRAGMA integrity_check (b-trees, indexes, and FTS5 tables' own consistency). */
async function sqliteIntegrity(db: CheckDb, report: Report): Promise<void> {
  const rows = await db.all<{ integrity_check: string }>('PRAGMA integrity_check(100)');
  const messages = rows.map((row) => row.integrity_check);
  if (messages.length === 1 && messages[0] === 'ok') {
    report.passed.push({ check: 'integrity', detail: 'PRAGMA integrity_check: ok' });
    return;
  }
  report.findings.push({
    check: 'integrity',
    problem: 'PRAGMA integrity_check reports damage',
    count: messages.length,
    examples: messages.slice(0, 10),
  });
}

/** SQLite: PRAGMA foreign_key_check, grouped by relation. */
async function sqliteForeignKeys(db: CheckDb, report: Report): Promise<void> {
  const relations = await db.all<{ n: number }>(
    `SELECT COUNT(*) AS n FROM pragma_table_list t, pragma_foreign_key_list(t.name) f WHERE t.schema = 'main' AND t.type = 'table'`,
  );
  const rows = await db.all<{ table: string; rowid: number | null; parent: string; fkid: number }>(
    'PRAGMA foreign_key_check',
  );
  const groups = new Map<string, { table: string; parent: string; fkid: number; rowids: string[] }>();
  for (const row of rows) {
    const key = `${row.table}\u0000${row.fkid}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { table: row.table, parent: row.parent, fkid: row.fkid, rowids: [] }));
    group.rowids.push(String(row.rowid));
  }
  for (const group of groups.values()) {
    const columns = await db.all<{ from: string; to: string | null }>(
      `SELECT "from", "to" FROM pragma_foreign_key_list('${group.table.replace(/'/g, "''")}') WHERE id = ${Number(group.fkid)} ORDER BY seq`,
    );
    const from = columns.map((c) => c.from).join(', ');
    const to = columns.map((c) => c.to ?? 'primary key').join(', ');
    const values = await db
      .all<{ v: string }>(
        `SELECT ${columns.map((c) => ident(c.from)).join(` || ',' || `)} AS v FROM ${ident(group.table)} WHERE _rowid_ IN (${group.rowids.slice(0, EXAMPLES).map(Number).join(', ')})`,
      )
      .catch(() => [] as Array<{ v: string }>);
    report.findings.push({
      check: 'foreign-keys',
      problem: `orphaned rows: ${group.table}.${from} -> ${group.parent}.${to} points at nothing`,
      count: group.rowids.length,
      examples: values.length
        ? values.map((v) => String(v.v))
        : group.rowids.slice(0, EXAMPLES).map((r) => `rowid ${r}`),
    });
  }
  if (groups.size === 0)
    report.passed.push({
      check: 'foreign-keys',
      detail: `PRAGMA foreign_key_check: ok (${relations[0]?.n ?? 0} relations)`,
    });
}

/** PostgreSQL: every foreign key of the schema checked row by row (constraints may have been bypassed, e.g. by session_replication_role). */
async function postgresForeignKeys(db: CheckDb, report: Report): Promise<void> {
  const keys = await db.all<{ child: string; parent: string; child_columns: string[]; parent_columns: string[] }>(
    `SELECT c.relname AS child, p.relname AS parent,
       ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(num, ord) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.ord) AS child_columns,
       ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(num, ord) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.ord) AS parent_columns
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class p ON p.oid = con.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE con.contype = 'f' AND n.nspname = current_schema() ORDER BY c.relname, con.conname`,
  );
  let bad = 0;
  for (const key of keys) {
    const notNull = key.child_columns.map((c) => `c.${ident(c)} IS NOT NULL`).join(' AND ');
    const join = key.child_columns.map((c, i) => `p.${ident(key.parent_columns[i])} = c.${ident(c)}`).join(' AND ');
    const from = `FROM ${ident(key.child)} c WHERE ${notNull} AND NOT EXISTS (SELECT 1 FROM ${ident(key.parent)} p WHERE ${join})`;
    const found = await countAndExamples(
      db,
      from,
      key.child_columns.map((c) => `c.${ident(c)}::text`).join(` || ',' || `),
    );
    if (found.count === 0) continue;
    bad++;
    report.findings.push({
      check: 'foreign-keys',
      problem: `orphaned rows: ${key.child}.${key.child_columns.join(', ')} -> ${key.parent}.${key.parent_columns.join(', ')} points at nothing`,
      count: found.count,
      examples: found.examples,
    });
  }
  if (bad === 0)
    report.passed.push({ check: 'foreign-keys', detail: `every foreign key holds (${keys.length} relations)` });
}

/** The search index against the assets (see INDEX). */
async function searchIndex(db: CheckDb, report: Report): Promise<void> {
  const { assets, documents, tags, vectors, fullText, staged, stats } = INDEX;
  const A = ident(assets.table);
  const D = ident(documents.table);
  const T = ident(tags.table);
  const live = assets.live;
  let problems = 0;
  const add = (
    problem: string,
    found: { count: number; examples: string[]; all: string[] },
    fixable: boolean,
  ): void => {
    if (found.count === 0) return;
    problems++;
    report.findings.push({
      check: 'search-index',
      problem,
      count: found.count,
      examples: found.examples,
      ...(fixable ? { assets: found.all } : {}),
    });
  };

  add(
    'live assets missing from the search index',
    await countAndExamples(
      db,
      `FROM ${A} a WHERE a.${live} AND NOT EXISTS (SELECT 1 FROM ${D} d WHERE d.${ident(documents.column)} = a.${ident(assets.column)})`,
      `a.${ident(assets.column)}`,
    ),
    true,
  );
  add(
    'search documents without a live asset',
    await countAndExamples(
      db,
      `FROM ${D} d WHERE NOT EXISTS (SELECT 1 FROM ${A} a WHERE a.${ident(assets.column)} = d.${ident(documents.column)} AND a.${live})`,
      `d.${ident(documents.column)}`,
    ),
    true,
  );
  add(
    'search tags without a search document',
    await countAndExamples(
      db,
      `FROM ${T} t WHERE NOT EXISTS (SELECT 1 FROM ${D} d WHERE d.${ident(documents.column)} = t.${ident(tags.column)})`,
      `t.${ident(tags.column)}`,
    ),
    true,
  );
  add(
    'search vectors without a live asset',
    await countAndExamples(
      db,
      `FROM ${ident(vectors.table)} v WHERE NOT EXISTS (SELECT 1 FROM ${A} a WHERE a.${ident(assets.column)} = v.${ident(vectors.column)} AND a.${live} AND a.pseudo = FALSE)`,
      `v.${ident(vectors.column)}`,
    ),
    true,
  );
  if (db.dialect === 'sqlite') {
    for (const { table, what } of fullText) {
      const F = ident(table);
      add(
        `search documents missing from the ${what} (${table})`,
        await countAndExamples(
          db,
          `FROM ${D} d WHERE NOT EXISTS (SELECT 1 FROM ${F} f WHERE f.rowid = d.${ident(documents.docId)})`,
          `d.${ident(documents.column)}`,
        ),
        true,
      );
      add(
        `${what} rows without a search document (${table})`,
        await countAndExamples(
          db,
          `FROM ${F} f WHERE NOT EXISTS (SELECT 1 FROM ${D} d WHERE d.${ident(documents.docId)} = f.rowid)`,
          `'rowid ' || f.rowid`,
        ),
        false,
      );
    }
    add(
      'search index rows staged but never moved into the full-text tables (search_staged)',
      await countAndExamples(db, `FROM ${ident(staged)} s`, `s.doc_id`),
      false,
    );
    const [counted] = await db.all<{ kept: number | string | null; actual: number | string }>(
      `SELECT (SELECT ${ident(stats.column)} FROM ${ident(stats.table)}) AS kept, (SELECT COUNT(*) FROM ${D}) AS actual`,
    );
    if (counted.kept === null || Number(counted.kept) !== Number(counted.actual)) {
      problems++;
      report.findings.push({
        check: 'search-index',
        problem: `the count of search documents (${stats.table}) differs from the documents`,
        count: 1,
        examples: [`kept ${counted.kept ?? 'nothing'}, counted ${Number(counted.actual)}`],
        recount: true,
      });
    }
  }
  if (problems === 0) {
    const [{ n: liveCount }] = await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${A} a WHERE a.${live}`);
    const [{ n: docs }] = await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${D} d`);
    report.passed.push({
      check: 'search-index',
      detail: `every live asset indexed once, nothing else (${Number(liveCount)} live assets, ${Number(docs)} documents)`,
    });
  }
}

/** Runs every check of the dialect on `db`, which must be inside one read transaction. */
export async function runChecks(db: CheckDb): Promise<Report> {
  const report: Report = { findings: [], passed: [], notes: [] };
  if (db.dialect === 'sqlite') {
    await sqliteIntegrity(db, report);
    await sqliteForeignKeys(db, report);
  } else {
    report.notes.push('PostgreSQL checks its own pages (data checksums, amcheck): no integrity_check here');
    await postgresForeignKeys(db, report);
  }
  await searchIndex(db, report);
  return report;
}
