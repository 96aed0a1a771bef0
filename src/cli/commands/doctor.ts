import { Client } from 'pg';
import { AppConfig } from '../../common/config/app-config';
import { Finding, RECOUNT_SEARCH_DOCUMENTS, Report, postgresCheckDb, runChecks, sqliteCheckDb } from '../doctor-checks';
import { EXIT } from '../exit-codes';
import { Output } from '../output';
import { StoreOptions, describeStore, requireSqliteIdle, requireSqliteStore, storeConfig, withSqlite } from '../store';

export interface DoctorOptions extends StoreOptions {
  fix?: boolean;
  json?: boolean;
}

/** Every check of doctor-checks.ts in one read-only snapshot of the store. */
async function examine(config: AppConfig): Promise<Report> {
  if (config.dialect === 'sqlite') {
    requireSqliteStore(config);
    return withSqlite(config.sqlitePath, {}, async (db) => {
      await db.run('BEGIN');
      try {
        return await runChecks(sqliteCheckDb(db));
      } finally {
        await db.run('COMMIT');
      }
    });
  }
  const client = new Client({ connectionString: config.databaseUrl! });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const report = await runChecks(postgresCheckDb(client));
    await client.query('COMMIT');
    return report;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Each check's lines in the order they ran: `ok` with what it looked at, or `FAIL` per finding with its count. */
function print(report: Report, out: Output): void {
  const checks = [...new Set([...report.passed.map((p) => p.check), ...report.findings.map((f) => f.check)])];
  const order = ['integrity', 'foreign-keys', 'search-index'];
  checks.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  for (const check of checks) {
    for (const passed of report.passed.filter((p) => p.check === check)) out.line(`  ok    ${check}: ${passed.detail}`);
    for (const finding of report.findings.filter((f) => f.check === check)) {
      const examples = finding.examples.length ? ` (e.g. ${finding.examples.join(', ')})` : '';
      out.line(
        `  FAIL  ${check}: ${finding.problem}: ${finding.count} ${finding.count === 1 ? 'row' : 'rows'}${examples}`,
      );
    }
  }
  for (const note of report.notes) out.line(`  note  ${note}`);
}

/**
 * What `--fix` repairs, only where the store's own code can do it without losing anything:
 * - the search index of the assets named by index findings, rebuilt by the search module itself
 *   (SearchIndex.reindex: indexes a live asset from its rows, drops the entries of any other);
 * - SQL indexes that integrity_check finds out of step with their tables: REINDEX (SQLite), which
 *   rebuilds them from the tables;
 * - the kept count of search documents (SQLite's search_stats), counted again from their table.
 * Orphaned rows and any other damage are left alone: deleting them would lose data that a backup
 * may still explain (restore one, or look at the rows the finding names).
 */
async function fix(config: AppConfig, report: Report, out: Output): Promise<void> {
  if (config.dialect === 'sqlite') await requireSqliteIdle(config, 'running doctor --fix');
  const integrity = report.findings.filter((f) => f.check === 'integrity' && f.examples.some((m) => /index/i.test(m)));
  if (config.dialect === 'sqlite' && integrity.length) {
    await withSqlite(config.sqlitePath, { writable: true }, (db) => db.run('REINDEX'));
    out.line('  fixed SQL indexes: REINDEX');
  }
  if (config.dialect === 'sqlite' && report.findings.some((f) => f.recount)) {
    await withSqlite(config.sqlitePath, { writable: true }, (db) => db.run(RECOUNT_SEARCH_DOCUMENTS));
    out.line('  fixed the count of search documents (search_stats)');
  }
  const assets = [...new Set(report.findings.flatMap((f: Finding) => f.assets ?? []))];
  if (assets.length === 0) return;
  // Loaded only here: the read-only checks need no application. Booting the search module already
  // indexes live assets the index misses (SearchIndex at startup).
  const [{ withContext }, { Database }, { SearchIndex }, { SearchModule }] = await Promise.all([
    import('../context'),
    import('../../common/database/database.service'),
    import('../../modules/search/search-index.service'),
    import('../../modules/search/search.module'),
  ]);
  await withContext(config, [SearchModule], async (app) => {
    const db = app.get(Database);
    const index = app.get(SearchIndex);
    const progress = out.progress('Reindexing');
    try {
      for (let i = 0; i < assets.length; i += 100) {
        const batch = assets.slice(i, i + 100);
        await db.transaction(async (em) => {
          for (const id of batch) await index.reindex(em, id);
        });
        progress.update(Math.min(i + 100, assets.length), assets.length);
      }
    } finally {
      progress.stop();
    }
  });
  out.line(
    `  fixed the search index of ${assets.length} ${assets.length === 1 ? 'asset' : 'assets'} (search module's reindex)`,
  );
}

/**
 * `trove doctor`: integrity of the store. Read-only (safe while a server runs: one read
 * transaction of its own); exits 1 when anything is wrong. `--fix` (store not in use) repairs
 * what can be repaired safely, then checks again.
 */
export async function doctor(options: DoctorOptions, out: Output): Promise<number> {
  const config = storeConfig(options);
  if (!options.json) out.line(`Checking ${describeStore(config)}`);
  let report = await examine(config);
  if (!options.json) print(report, out);
  if (options.fix && report.findings.length) {
    // With --json, stdout carries only the JSON report.
    const log = options.json ? new Output(true) : out;
    log.line('Fixing:');
    await fix(config, report, log);
    log.line('Checking again:');
    report = await examine(config);
    if (!options.json) print(report, out);
  }
  if (options.json) {
    out.line(
      JSON.stringify(
        {
          store: describeStore(config),
          ok: report.findings.length === 0,
          findings: report.findings.map(({ assets: _assets, recount: _recount, ...f }) => f),
          passed: report.passed,
          notes: report.notes,
        },
        null,
        2,
      ),
    );
  } else {
    const n = report.findings.length;
    out.line(
      n === 0
        ? 'No problems found.'
        : `${n} ${n === 1 ? 'problem' : 'problems'} found${options.fix ? ' that --fix cannot repair' : ' (trove doctor --fix repairs the search index; docs/OPERATIONS.md)'}.`,
    );
  }
  if (report.findings.length) return EXIT.failure;
  return EXIT.ok;
}
