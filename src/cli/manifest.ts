import { existsSync } from 'node:fs';
import { CliError } from './exit-codes';
import { StoreDigest } from './digest';
import { readJson, writeFileAtomic } from './files';

/**
 * The sidecar `<backup>.json` written by `trove backup`: what the backup holds, taken from the
 * same snapshot as the backup itself, so that `trove restore` (and anyone) can check a copy
 * against it.
 */
export interface BackupManifest {
  kind: 'trove-backup';
  version: 1;
  dialect: 'sqlite' | 'postgres';
  /** `sqlite`: a SQLite database file made by VACUUM INTO; `pg_dump-custom`: `pg_dump --format=custom`. */
  format: 'sqlite' | 'pg_dump-custom';
  createdAt: string;
  /** Trove's release that made it. */
  trove: string;
  /** The store it was taken from (no password). */
  source: string;
  /** The backup file's name (next to this manifest), size and SHA-256. */
  file: string;
  bytes: number;
  sha256: string;
  /** The last migration applied to the store: the schema a restore brings back (a newer Trove migrates it at start). */
  migration: string | null;
  /** Rows per table, per-table row hashes and the checksum over all (see digest.ts). */
  counts: Record<string, number>;
  hashes: Record<string, string>;
  checksum: string;
}

export function manifestPath(backup: string): string {
  return `${backup}.json`;
}

export function writeManifest(backup: string, manifest: BackupManifest): void {
  writeFileAtomic(manifestPath(backup), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(path: string): BackupManifest {
  if (!existsSync(path))
    throw new CliError(
      `no manifest at ${path}: trove backup writes one next to each backup (use --manifest to name another)`,
    );
  let manifest: BackupManifest;
  try {
    manifest = readJson<BackupManifest>(path);
  } catch (error) {
    throw new CliError(`${path} is not a backup manifest: ${(error as Error).message}`);
  }
  if (manifest?.kind !== 'trove-backup' || manifest.version !== 1 || !manifest.counts || !manifest.checksum) {
    throw new CliError(`${path} is not a Trove backup manifest (kind "trove-backup", version 1)`);
  }
  return manifest;
}

/** The digest part of a manifest. */
export function manifestDigest(manifest: BackupManifest): StoreDigest {
  return {
    dialect: manifest.dialect,
    counts: manifest.counts,
    hashes: manifest.hashes ?? {},
    checksum: manifest.checksum,
  };
}
