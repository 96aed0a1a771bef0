import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { digestDifferences, postgresDigest, sqliteDigest, StoreDigest } from '../digest';
import { CliError, UsageError } from '../exit-codes';
import { fsyncPath, sha256File } from '../files';
import { BackupManifest, manifestPath, readManifest } from '../manifest';
import { Output } from '../output';
import { pgConnection, requirePgProgram, runPgProgram } from '../pg-tools';
import { StoreOptions, sqliteInUse, storeConfig, withSqlite } from '../store';
import { printDigest } from './backup';

export interface RestoreOptions extends StoreOptions {
  force?: boolean;
  manifest?: string;
  pgBin?: string;
}

/**
 * `trove restore <file>`: brings a backup back into a fresh store, then checks the restored rows
 * against the backup's manifest (counts per table and checksum) and prints them.
 *
 * SQLite: `--data-dir <dir>` (required: never the configured store by default) must be empty or
 * absent unless `--force`, which replaces its trove.db (WAL and shared-memory files included) once
 * no process has it open. PostgreSQL: `--database-url <url>` (required) names a database without
 * tables unless `--force` (then `pg_restore --clean --if-exists`); `pg_restore --single-transaction`.
 */
export async function restore(file: string, options: RestoreOptions, out: Output): Promise<void> {
  const source = resolve(file);
  if (!existsSync(source)) throw new CliError(`no backup at ${source}`);
  const manifest = readManifest(options.manifest ? resolve(options.manifest) : manifestPath(source));
  if ((await sha256File(source)) !== manifest.sha256) {
    throw new CliError(
      `${source} is not the file its manifest describes (SHA-256 differs): damaged or replaced since the backup`,
    );
  }
  const digest =
    manifest.dialect === 'sqlite'
      ? await restoreSqlite(source, manifest, options, out)
      : await restorePostgres(source, manifest, options, out);
  const problems = digestDifferences(manifest, digest);
  if (problems.length || digest.checksum !== manifest.checksum) {
    throw new CliError(
      `the restored store does not match the manifest:\n  - ${(problems.length ? problems : ['checksum differs']).join('\n  - ')}`,
    );
  }
  out.line('Verified: counts and checksum match the manifest');
  printDigest(digest, out);
  // Loaded here: the transfer service brings the application's modules with it.
  const { printRecords } = await import('./transfer');
  await printRecords(
    storeConfig(
      manifest.dialect === 'sqlite'
        ? { dataDir: options.dataDir, databaseUrl: '' }
        : { databaseUrl: options.databaseUrl },
    ),
    out,
  );
}

async function restoreSqlite(
  source: string,
  manifest: BackupManifest,
  options: RestoreOptions,
  out: Output,
): Promise<StoreDigest> {
  if (options.databaseUrl)
    throw new UsageError(
      'this is a SQLite backup: restore it into --data-dir (between SQLite and PostgreSQL, use trove export / import)',
    );
  if (!options.dataDir)
    throw new UsageError('restore needs --data-dir <dir>: a fresh directory for the restored store');
  const dir = resolve(options.dataDir);
  const db = join(dir, 'trove.db');
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!options.force)
      throw new CliError(
        `${dir} is not empty: restore into a fresh directory, or pass --force to replace its trove.db`,
      );
    if (await sqliteInUse(db))
      throw new CliError(`${db} is open in another process (a running Trove server?): stop it before replacing it`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  out.line(`Restoring ${source} (${manifest.createdAt}, from ${manifest.source}) into ${db}`);
  const partial = join(dir, `.trove.db.${process.pid}.restoring`);
  copyFileSync(source, partial);
  fsyncPath(partial);
  // The old WAL must go before the new file arrives: SQLite would replay it onto the restored pages.
  for (const suffix of ['-wal', '-shm', '-journal', '']) rmSync(`${db}${suffix}`, { force: true });
  renameSync(partial, db);
  fsyncPath(dir, true);
  const progress = out.progress('Verifying');
  try {
    return await withSqlite(db, {}, async (conn) => {
      const integrity = (await conn.all<{ integrity_check: string }>('PRAGMA integrity_check')).map(
        (row) => row.integrity_check,
      );
      if (integrity.join() !== 'ok')
        throw new CliError(`the restored store fails PRAGMA integrity_check: ${integrity.slice(0, 5).join('; ')}`);
      return sqliteDigest(conn, progress.update);
    });
  } finally {
    progress.stop();
  }
}

async function restorePostgres(
  source: string,
  manifest: BackupManifest,
  options: RestoreOptions,
  out: Output,
): Promise<StoreDigest> {
  if (options.dataDir)
    throw new UsageError(
      'this is a PostgreSQL backup: restore it into --database-url (between SQLite and PostgreSQL, use trove export / import)',
    );
  if (!options.databaseUrl)
    throw new UsageError('restore needs --database-url <url>: a fresh database for the restored store');
  const config = storeConfig({ databaseUrl: options.databaseUrl });
  const pgRestore = requirePgProgram(
    'pg_restore',
    options.pgBin,
    `pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$DATABASE_URL" ${source}`,
  );
  const client = new Client({ connectionString: config.databaseUrl! });
  await client.connect();
  try {
    const existing = (
      await client.query<{ n: string }>(`SELECT COUNT(*)::text AS n FROM pg_tables WHERE schemaname = current_schema()`)
    ).rows[0].n;
    if (Number(existing) > 0 && !options.force) {
      throw new CliError(
        `the target database has ${existing} tables: restore into a fresh database, or pass --force to replace what the backup holds`,
      );
    }
    out.line(`Restoring ${source} (${manifest.createdAt}, from ${manifest.source}) into the target database`);
    const { dbname, env } = pgConnection(config.databaseUrl!);
    await runPgProgram(
      pgRestore,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        ...(options.force ? ['--clean', '--if-exists'] : []),
        `--dbname=${dbname}`,
        source,
      ],
      env,
    );
    const progress = out.progress('Verifying');
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const digest = await postgresDigest(client, progress.update);
      await client.query('COMMIT');
      return digest;
    } finally {
      progress.stop();
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
