import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Flushes a file (or a directory's entries) to disk. */
export function fsyncPath(path: string, directory = false): void {
  const fd = openSync(path, directory ? 'r' : 'r+');
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some file systems refuse fsync on a directory: the rename is as durable as they make it.
    if (!directory) throw error;
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to `path` through a temporary file renamed into place (never a half-written file). */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  fsyncPath(tmp);
  renameSync(tmp, path);
  fsyncPath(dirname(path), true);
}

/** SHA-256 of a file's bytes, hex. */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
