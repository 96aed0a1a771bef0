import { Injectable } from '@nestjs/common';
import {
  closeSync,
  constants,
  read,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  Stats,
} from 'node:fs';
import { readdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { AppConfig } from '../../common/config/app-config';
import { DomainError, Forbidden, InvalidInput, NotFound, Unavailable } from '../../common/errors/domain-errors';

/** Files read from one directory path at most, and directory levels walked. */
const MAX_FILES = 200;
const MAX_DEPTH = 4;
/** Bytes read for one request in all, whatever the paths. */
const MAX_TOTAL = 32 * 1024 * 1024;
/**
 * Linux's O_PATH (not in `fs.constants`): a descriptor that names a file without opening it for
 * I/O, so a device or FIFO swapped in is never opened and nothing outside the roots is read.
 */
const O_PATH = 0o10000000;
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Errors that say the machine is short of something, not that the path is refused. */
const EXHAUSTED = new Set(['EMFILE', 'ENFILE', 'ENOMEM']);
const readAt = promisify(read);

export interface LocalDocument {
  path: string;
  text: string;
}

/** What the descriptor of a path was found to be, once pinned: its real path and its kind. */
interface Pinned {
  /** Null only on the portable path, for a special file inside the roots (never opened). */
  fd: number | null;
  real: string;
  info: Stats;
}

/** A path this request will not read, for whatever reason: the one answer a client gets. */
class Refused extends Error {}

/**
 * Every local file Trove reads for a client goes through here: `/qgpt/relevance` `paths` and
 * directories, the files of anchors, the CLI's `ask -f`, MCP's `open_files`. Only under
 * TROVE_QGPT_ROOTS (by default the home directory on a loopback address, without its top-level
 * hidden entries such as ~/.ssh).
 *
 * Each path is opened once and what is read is what was checked. On Linux the path is pinned
 * with an O_PATH descriptor (nothing is opened for I/O), the descriptor's real path
 * (`/proc/self/fd/N`) is checked against the roots and its kind taken from fstat, and the bytes
 * are read by reopening that same descriptor: a directory or symlink swapped in between cannot
 * redirect the read. Elsewhere the checked real path is opened without following a final
 * symlink, and the descriptor's device and inode must be those its real path names after the
 * open, through directories only (no component a symlink).
 * Directory walks pin each directory and each entry the same way.
 *
 * A path that is outside the roots, missing, unreadable or changed under the request gets one
 * answer, the same status and message whatever the reason, so a client learns nothing about
 * files it may not read. Inside the roots the refusals say why: not a regular file (FIFOs,
 * devices, sockets), over TROVE_QGPT_FILE_LIMIT, binary.
 */
@Injectable()
export class LocalFiles {
  private roots: { written: string[]; real: string[] } | null = null;
  private procFd = process.platform === 'linux' && existsSync('/proc/self/fd');

  constructor(private readonly config: AppConfig) {}

  /** The reader of systems without /proc/self/fd (macOS), also on Linux: its tests run it there. */
  static portable(config: AppConfig): LocalFiles {
    const files = new LocalFiles(config);
    files.procFd = false;
    return files;
  }

  async read(paths: string[]): Promise<LocalDocument[]> {
    if (this.config.qgptRoots.length === 0) {
      throw new Forbidden(
        'reading local files is off on this server: set TROVE_QGPT_ROOTS to the directories questions may read',
      );
    }
    for (const path of paths) {
      if (path.includes('\u0000')) throw new InvalidInput('paths must not contain NUL bytes');
      if (!isAbsolute(path)) throw new InvalidInput(`paths must be absolute (got "${path}")`);
    }
    const out: LocalDocument[] = [];
    const budget = { left: MAX_TOTAL };
    for (const path of paths) {
      try {
        await this.readPath(path, out, budget);
      } catch (error) {
        if (error instanceof Refused) throw new NotFound(this.refusal(path));
        throw error;
      }
    }
    return out;
  }

  private refusal(path: string): string {
    const where = this.config.qgptHomeDefault
      ? 'outside the home directory or in one of its hidden directories (set TROVE_QGPT_ROOTS to allow other directories)'
      : 'outside the directories TROVE_QGPT_ROOTS allows';
    return `${path} cannot be read: it does not exist, is not readable, or is ${where}`;
  }

  private async readPath(path: string, out: LocalDocument[], budget: { left: number }): Promise<void> {
    const pinned = this.pin(path);
    try {
      if (pinned.info.isDirectory()) {
        await this.walk(pinned, 0, out, budget, new Set());
        return;
      }
      if (!pinned.info.isFile()) throw new InvalidInput(`${path} is not a regular file`);
      if (pinned.info.size > this.config.qgptFileLimit) {
        throw new InvalidInput(`${path} is larger than TROVE_QGPT_FILE_LIMIT (${this.config.qgptFileLimit} bytes)`);
      }
      if (pinned.info.size > budget.left)
        throw new InvalidInput(`the paths of one request may hold at most ${MAX_TOTAL} bytes`);
      const text = await this.text(pinned);
      if (text === null) throw new InvalidInput(`${path} is not a text file`);
      budget.left -= pinned.info.size;
      out.push({ path: pinned.real, text });
    } finally {
      release(pinned);
    }
  }

  /** Reads a pinned directory's entries, each pinned and checked on its own; what is refused is skipped. */
  private async walk(
    dir: Pinned,
    depth: number,
    out: LocalDocument[],
    budget: { left: number },
    seen: Set<string>,
  ): Promise<void> {
    const key = `${dir.info.dev}:${dir.info.ino}`;
    if (depth > MAX_DEPTH || seen.has(key)) return;
    seen.add(key);
    let names: string[];
    try {
      names = await readdir(this.listed(dir));
    } catch (error) {
      if (EXHAUSTED.has(code(error))) throw unavailable();
      return;
    }
    for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
      if (out.length >= MAX_FILES) return;
      let entry: Pinned;
      try {
        entry = this.pin(join(this.listed(dir), name), false);
      } catch (error) {
        if (error instanceof Refused) continue;
        throw error;
      }
      try {
        if (entry.info.isDirectory()) await this.walk(entry, depth + 1, out, budget, seen);
        else if (
          entry.info.isFile() &&
          entry.info.size <= this.config.qgptFileLimit &&
          entry.info.size <= budget.left
        ) {
          const text = await this.text(entry).catch((error: unknown) => {
            if (error instanceof Refused) return null;
            throw error;
          });
          if (text !== null && text.trim()) {
            budget.left -= entry.info.size;
            out.push({ path: entry.real, text });
          }
        }
      } finally {
        release(entry);
      }
    }
  }

  /** Where a pinned directory's entries are reached: through its descriptor on Linux, else its checked real path. */
  private listed(dir: Pinned): string {
    return this.procFd && dir.fd !== null ? fdPath(dir.fd) : dir.real;
  }

  /**
   * A descriptor for the path whose real path is inside the roots, with what fstat says of it;
   * Refused for anything else (missing, unreadable, outside, changed while looked at).
   *
   * A path that is not under a root as written (`..` resolved, symlinks not) is refused without
   * touching the file system; the rest is looked up with synchronous calls (an open, an fstat,
   * a readlink: microseconds each; one hop through libuv's thread pool per call would make a
   * refusal's time depend on how far the lookup got, which is what a prober measures).
   * `asWritten` is false for the entries of a walked directory, reached through its descriptor.
   */
  private pin(path: string, asWritten = true): Pinned {
    if (asWritten && !this.underRootsAsWritten(resolve(path))) throw new Refused();
    let fd: number | null = null;
    try {
      let real: string;
      let info: Stats;
      if (this.procFd) {
        try {
          fd = openSync(path, O_PATH);
        } catch (error) {
          lookAlike(this);
          throw error;
        }
        info = fstatSync(fd);
        real = readlinkSync(fdPath(fd));
      } else {
        real = realpathSync(path);
        if (!this.isInside(real)) throw new Refused();
        const kind = lstatSync(real);
        if (!kind.isFile() && !kind.isDirectory()) {
          // A special file is refused by its kind without being opened.
          if (!sameFile(symlinkFree(real), kind)) throw new Refused();
          return { fd: null, real, info: kind };
        }
        // A directory is listed by its real path and each entry pinned again, so its descriptor
        // only holds its identity; a file is opened for reading, the final component not followed.
        fd = openSync(
          real,
          kind.isDirectory() ? constants.O_RDONLY | constants.O_DIRECTORY : READ_FLAGS | constants.O_NOFOLLOW,
        );
        info = fstatSync(fd);
        // What was opened must be what the real path names now through directories only: a
        // component swapped for a symlink since realpath, or swapped back, is seen here.
        if (!sameFile(symlinkFree(real), info)) throw new Refused();
      }
      if (info.nlink === 0 || !this.isInside(real)) throw new Refused();
      return { fd, real, info };
    } catch (error) {
      if (fd !== null) closeSync(fd);
      if (error instanceof DomainError) throw error;
      if (EXHAUSTED.has(code(error))) throw unavailable();
      throw new Refused();
    }
  }

  /** The file's text, read from the pinned descriptor; null for binary content. */
  private async text(pinned: Pinned): Promise<string | null> {
    if (pinned.fd === null) throw new Refused();
    let reader = pinned.fd;
    try {
      // An O_PATH descriptor cannot be read: reopening it through /proc opens the same file, not the path again.
      if (this.procFd) reader = openSync(fdPath(pinned.fd), READ_FLAGS);
      const info = fstatSync(reader);
      if (!sameFile(info, pinned.info) || !info.isFile()) throw new Refused();
      const buffer = Buffer.alloc(Math.min(info.size, this.config.qgptFileLimit));
      const { bytesRead } = await readAt(reader, buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      return bytes.includes(0) ? null : bytes.toString('utf8');
    } catch (error) {
      if (error instanceof Refused) throw error;
      if (EXHAUSTED.has(code(error))) throw unavailable();
      throw new Refused();
    } finally {
      if (reader !== pinned.fd) closeSync(reader);
    }
  }

  /** The configured roots as written and as real paths (a root may itself be reached through a symlink). */
  private rootPaths(): { written: string[]; real: string[] } {
    if (!this.roots) {
      const real: string[] = [];
      for (const root of this.config.qgptRoots) {
        try {
          real.push(realpathSync(root));
        } catch {
          // A root that does not exist allows nothing.
        }
      }
      this.roots = { written: this.config.qgptRoots.map((r) => resolve(r)), real };
    }
    return this.roots;
  }

  private underRootsAsWritten(path: string): boolean {
    const { written, real } = this.rootPaths();
    return [...written, ...real].some((root) => this.under(root, path));
  }

  /** Whether a real path lies under a root (and not, under the default home root, in its top-level hidden entries). */
  isInside(real: string): boolean {
    return this.rootPaths().real.some((root) => this.under(root, real));
  }

  private under(root: string, path: string): boolean {
    const prefix = root.endsWith(sep) ? root : root + sep;
    if (path !== root && !path.startsWith(prefix)) return false;
    return !(this.config.qgptHomeDefault && path.slice(prefix.length).startsWith('.'));
  }
}

/**
 * What a refusal after a successful open costs (an fstat, a readlink, the roots checked, a
 * close), done on `/` when the open failed: a symlink under a root that points at a file outside
 * takes as long to refuse whether that file exists or not.
 */
function lookAlike(files: LocalFiles): void {
  const fd = openSync(sep, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  fstatSync(fd);
  files.isInside(readlinkSync(fdPath(fd)));
  closeSync(fd);
}

/**
 * The lstat of a real path's last component, after checking that no component on the way is a
 * symlink (a real path has none, unless one was swapped in since it was resolved). The walk is by
 * names, so a directory swapped for a symlink and back while the last component is looked up
 * would pass one walk: each directory on the way is looked up again afterwards and must be the
 * same inode, not renamed and holding the same entries (its ctime and mtime, in nanoseconds,
 * unchanged: a rename changes the first, any entry added or removed the second).
 */
function symlinkFree(real: string): Stats {
  const dirs: string[] = [];
  let at = '';
  for (const part of real.split(sep).filter(Boolean)) dirs.push((at += sep + part));
  const last = dirs.pop() ?? sep;
  // A busy directory on the way (a home, /tmp) changes for other reasons: a few tries, each one
  // sound on its own, before the path is refused.
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = [sep, ...dirs].map(directoryState);
    const info = lstatSync(last);
    if (info.isSymbolicLink()) throw new Refused();
    const after = [sep, ...dirs].map(directoryState);
    if (after.every((state, i) => state === before[i])) return info;
  }
  throw new Refused();
}

/** A directory's identity and its last changes, or a refusal when the name is a symlink now. */
function directoryState(path: string): string {
  const info = lstatSync(path, { bigint: true });
  if (info.isSymbolicLink() || !info.isDirectory()) throw new Refused();
  return `${info.dev}:${info.ino}:${info.ctimeNs}:${info.mtimeNs}`;
}

function release(pinned: Pinned): void {
  if (pinned.fd !== null) closeSync(pinned.fd);
}

function fdPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException | null)?.code ?? '';
}

function unavailable(): Unavailable {
  return new Unavailable(
    'the server is out of file descriptors or memory for reading local files; try again shortly',
    '1',
  );
}
