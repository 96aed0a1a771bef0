import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CliError } from './exit-codes';

/** Where PostgreSQL's client programs are looked for after `--pg-bin` and PATH (Debian/Ubuntu, Homebrew, source builds). */
const KNOWN_DIRS = [
  '/usr/lib/postgresql',
  '/usr/pgsql',
  '/opt/homebrew/opt/libpq/bin',
  '/usr/local/opt/libpq/bin',
  '/usr/local/pgsql/bin',
];

/** The path of `program` (pg_dump, pg_restore): in `dir` if given, else on PATH, else the newest of the usual places; null if none. */
export function findPgProgram(program: string, dir?: string): string | null {
  if (dir) {
    const path = join(dir, program);
    return existsSync(path) ? path : null;
  }
  for (const entry of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const path = join(entry, program);
    if (existsSync(path)) return path;
  }
  for (const base of KNOWN_DIRS) {
    if (!existsSync(base)) continue;
    if (existsSync(join(base, program))) return join(base, program);
    // /usr/lib/postgresql/<major>/bin: the newest major first (pg_dump must be at least the server's).
    const majors = readdirSync(base)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const path = join(base, major, 'bin', program);
      if (existsSync(path)) return path;
    }
  }
  return null;
}

/** The connection for a PostgreSQL client program: the URL without its password (visible in `ps`), the password in PGPASSWORD. */
export function pgConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

/** Runs a PostgreSQL client program; resolves with its stdout, rejects (exit 1) with its stderr. */
export function runPgProgram(path: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => reject(new CliError(`could not run ${path}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const message = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-10).join('\n');
      reject(new CliError(`${path} failed (${signal ?? `exit code ${code}`}):\n${message}`));
    });
  });
}

/** Fails with the documented manual route when `program` cannot be found. */
export function requirePgProgram(program: string, dir: string | undefined, manual: string): string {
  const path = findPgProgram(program, dir);
  if (!path) {
    throw new CliError(
      `${program} not found (looked in ${dir ? dir : `PATH and ${KNOWN_DIRS.join(', ')}`}); install PostgreSQL's client programs ` +
        `(the same major version as the server or newer) or pass --pg-bin <dir>. By hand:\n  ${manual}`,
    );
  }
  return path;
}
