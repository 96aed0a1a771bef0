import { chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { AppConfig } from '../../common/config/app-config';
import { TROVE_VERSION } from '../../version';
import { StoreDigest, digestDifferences, postgresDigest, sqliteDigest } from '../digest';
import { CliError } from '../exit-codes';
import { fsyncPath, sha256File } from '../files';
import { BackupManifest, manifestPath, readManifest, writeManifest } from '../manifest';
import { Output } from '../output';
import { pgConnection, requirePgProgram, runPgProgram } from '../pg-tools';
import { StoreOptions, describeStore, requireSqliteStore, storeConfig, withSqlite } from '../store';

export interface BackupOptions extends StoreOptions {
  force?: boolean;
  pgBin?: string;
}

/**
 * `trove backup <file>`: a consistent copy of the store taken while it serves, with a manifest of
 * what it holds from the same snapshot, then verified by reading the copy back.
 *
 * SQLite: `VACUUM INTO` from a read-only connection of the command's own. In WAL mode it reads one
 * snapshot (the last commit when it starts) and never blocks the server's writer or readers; the
 * copy is compact, in rollback-journal mode, complete in itself. PostgreSQL: `pg_dump
 * --format=custom` on a snapshot exported by the command's own REPEATABLE READ transaction, in
 * which the counts and checksum are taken too.
 */
export async function backup(file: string, options: BackupOptions, out: Output): Promise<void> {
  const config = storeConfig(options);
  const target = resolve(file);
  if (existsSync(target) && !options.force)
    throw new CliError(`${target} exists: choose another name or pass --force to replace it`);
  if (!existsSync(dirname(target))) throw new CliError(`no directory ${dirname(target)}`);
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  rmSync(partial, { force: true });
  out.line(`Backing up ${describeStore(config)}`);
  let manifest: BackupManifest;
  try {
    manifest =
      config.dialect === 'sqlite'
        ? await sqliteBackup(config, partial, out)
        : await postgresBackup(config, partial, options, out);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  // A backup holds everything the store does: readable by its owner only, as the data directory.
  chmodSync(partial, 0o600);
  fsyncPath(partial);
  renameSync(partial, target);
  fsyncPath(dirname(target), true);
  manifest.file = basename(target);
  manifest.bytes = statSync(target).size;
  manifest.sha256 = await sha256File(target);
  writeManifest(target, manifest);
  out.line(`Wrote ${target} (${manifest.bytes} bytes) and ${manifestPath(target)}`);

  await verifyBackup(target, options, out);
}

function baseManifest(config: AppConfig, digest: StoreDigest, migration: string | null): BackupManifest {
  return {
    kind: 'trove-backup',
    version: 1,
    dialect: config.dialect,
    format: config.dialect === 'sqlite' ? 'sqlite' : 'pg_dump-custom',
    createdAt: new Date().toISOString(),
    trove: TROVE_VERSION,
    source: describeStore(config),
    file: '',
    bytes: 0,
    sha256: '',
    migration,
    counts: digest.counts,
    hashes: digest.hashes,
    checksum: digest.checksum,
  };
}

async function sqliteBackup(config: AppConfig, partial: string, out: Output): Promise<BackupManifest> {
  requireSqliteStore(config);
  out.line('Copying one snapshot (VACUUM INTO)');
  // The snapshot: one statement in one read transaction of a read-only connection.
  await withSqlite(config.sqlitePath, {}, (db) => db.run('VACUUM INTO ?1', [partial]));
  // VACUUM INTO does not sync what it wrote; the counts and checksum are those of the snapshot itself.
  fsyncPath(partial);
  const progress = out.progress('Counting');
  try {
    return await withSqlite(partial, {}, async (db) => {
      const digest = await sqliteDigest(db, progress.update);
      const last = await db
        .get<{ name: string }>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1')
        .catch(() => undefined);
      return baseManifest(config, digest, last?.name ?? null);
    });
  } finally {
    progress.stop();
  }
}

const PG_DUMP_BY_HAND = 'pg_dump --format=custom --file=<file> "$DATABASE_URL"';

async function postgresBackup(
  config: AppConfig,
  partial: string,
  options: BackupOptions,
  out: Output,
): Promise<BackupManifest> {
  const pgDump = requirePgProgram('pg_dump', options.pgBin, PG_DUMP_BY_HAND);
  const client = new Client({ connectionString: config.databaseUrl! });
  await client.connect();
  const progress = out.progress('Counting');
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await client.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot');
    const digest = await postgresDigest(client, progress.update);
    progress.stop();
    const last = await client
      .query<{ name: string }>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1')
      .catch(() => ({ rows: [] as Array<{ name: string }> }));
    // pg_dump reads the very snapshot the counts were taken in; it stays valid while this transaction is open.
    const { dbname, env } = pgConnection(config.databaseUrl!);
    await runPgProgram(
      pgDump,
      ['--format=custom', `--snapshot=${rows[0].snapshot}`, `--file=${partial}`, `--dbname=${dbname}`],
      env,
    );
    await client.query('COMMIT');
    return baseManifest(config, digest, last.rows[0]?.name ?? null);
  } finally {
    progress.stop();
    await client.end().catch(() => undefined);
  }
}

/**
 * Reads a backup back and checks it against its manifest: the file's SHA-256; SQLite: PRAGMA
 * integrity_check and every table's rows (counts and hashes); PostgreSQL: the archive's table of
 * contents (pg_restore --list) has the data of every table the manifest counts (the rows
 * themselves are checked when restoring: `trove restore` into a scratch database).
 */
export async function verifyBackup(target: string, options: BackupOptions, out: Output): Promise<void> {
  const manifest = readManifest(manifestPath(target));
  const problems: string[] = [];
  if ((await sha256File(target)) !== manifest.sha256) problems.push(`the file's SHA-256 differs from the manifest's`);
  if (manifest.dialect === 'sqlite') {
    const progress = out.progress('Verifying');
    try {
      await withSqlite(target, {}, async (db) => {
        const integrity = (await db.all<{ integrity_check: string }>('PRAGMA integrity_check')).map(
          (row) => row.integrity_check,
        );
        if (integrity.join() !== 'ok') problems.push(`PRAGMA integrity_check: ${integrity.slice(0, 5).join('; ')}`);
        const digest = await sqliteDigest(db, progress.update);
        problems.push(...digestDifferences(manifest, digest));
        if (digest.checksum !== manifest.checksum && problems.length === 0)
          problems.push('the checksum differs from the manifest');
      });
    } finally {
      progress.stop();
    }
    if (problems.length === 0) out.line('Verified: integrity_check ok, counts and checksum match the manifest');
  } else {
    const pgRestore = requirePgProgram('pg_restore', options.pgBin, `pg_restore --list ${target}`);
    const list = await runPgProgram(pgRestore, ['--list', target], { ...process.env });
    const withData = new Set([...list.matchAll(/^\d+;\s*\d+\s+\d+\s+TABLE DATA\s+\S+\s+(\S+)\s/gm)].map((m) => m[1]));
    const missing = Object.keys(manifest.counts).filter((table) => !withData.has(table));
    if (missing.length) problems.push(`the archive has no data for ${missing.join(', ')}`);
    if (problems.length === 0)
      out.line(
        `Verified: the archive lists the data of all ${Object.keys(manifest.counts).length} tables of the manifest`,
      );
  }
  if (problems.length) throw new CliError(`verification of ${target} failed:\n  - ${problems.join('\n  - ')}`);
  printDigest(manifest, out);
}

/** The counts (tables with rows) and the checksum, as backup and restore print them. */
export function printDigest(manifest: Pick<BackupManifest, 'counts' | 'checksum'>, out: Output): void {
  const tables = Object.entries(manifest.counts).filter(([, n]) => n > 0);
  const rows = tables.reduce((sum, [, n]) => sum + n, 0);
  out.line(`Tables: ${Object.keys(manifest.counts).length} (${tables.length} with rows), rows: ${rows}`);
  for (const [table, n] of tables) out.line(`  ${table.padEnd(36)} ${n}`);
  out.line(`Checksum: ${manifest.checksum}`);
}
