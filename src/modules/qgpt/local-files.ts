import { Injectable } from '@nestjs/common';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { AppConfig } from '../../common/config/app-config';
import { Forbidden, InvalidInput, NotFound } from '../../common/errors/domain-errors';

/** Files read from one directory path at most, and directory levels walked. */
const MAX_FILES = 200;
const MAX_DEPTH = 4;
/** Bytes read for one request in all, whatever the paths. */
const MAX_TOTAL = 32 * 1024 * 1024;

export interface LocalDocument {
  path: string;
  text: string;
}

/**
 * Reads the local query space of /qgpt/relevance (`paths`, and the files of anchors), and
 * only under TROVE_QGPT_ROOTS (by default the home directory, on a loopback address): the
 * real path (symlinks and `..` resolved) must lie under a root's real path; only regular
 * files are read (FIFOs, devices and sockets are refused before they are opened), at most
 * TROVE_QGPT_FILE_LIMIT bytes each, never a path with a NUL byte, never a binary file.
 * A directory is read file by file (at most 200 files, 4 levels, hidden entries skipped).
 * Under the default home root, its top-level hidden entries (~/.ssh, ~/.aws, ~/.config, ...)
 * are never read.
 */
@Injectable()
export class LocalFiles {
  private roots: Promise<string[]> | null = null;

  constructor(private readonly config: AppConfig) {}

  private realRoots(): Promise<string[]> {
    this.roots ??= Promise.all(this.config.qgptRoots.map((r) => realpath(r).catch(() => null))).then((r) => r.filter((x): x is string => x !== null));
    return this.roots;
  }

  private async inside(real: string): Promise<boolean> {
    return (await this.realRoots()).some((root) => {
      const prefix = root.endsWith(sep) ? root : root + sep;
      if (real !== root && !real.startsWith(prefix)) return false;
      return !(this.config.qgptHomeDefault && real.slice(prefix.length).startsWith('.'));
    });
  }

  async read(paths: string[]): Promise<LocalDocument[]> {
    if (this.config.qgptRoots.length === 0) {
      throw new Forbidden('reading local files is off on this server: set TROVE_QGPT_ROOTS to the directories questions may read');
    }
    const out: LocalDocument[] = [];
    const budget = { left: MAX_TOTAL };
    for (const path of paths) {
      if (path.includes('\u0000')) throw new InvalidInput('paths must not contain NUL bytes');
      if (!isAbsolute(path)) throw new InvalidInput(`paths must be absolute (got "${path}")`);
      let real: string;
      try {
        real = await realpath(path);
      } catch {
        throw new NotFound(`${path} does not exist`);
      }
      if (!(await this.inside(real))) {
        throw new Forbidden(
          this.config.qgptHomeDefault
            ? `${path} is outside the home directory or in one of its hidden directories, which questions may not read (set TROVE_QGPT_ROOTS to allow other directories)`
            : `${path} is outside the directories TROVE_QGPT_ROOTS allows`,
        );
      }
      const info = await stat(real);
      if (info.isDirectory()) {
        await this.walk(real, 0, out, budget);
        continue;
      }
      if (!info.isFile()) throw new InvalidInput(`${path} is not a regular file`);
      if (info.size > this.config.qgptFileLimit) throw new InvalidInput(`${path} is larger than TROVE_QGPT_FILE_LIMIT (${this.config.qgptFileLimit} bytes)`);
      if (info.size > budget.left) throw new InvalidInput(`the paths of one request may hold at most ${MAX_TOTAL} bytes`);
      const text = await this.readFile(real);
      if (text === null) throw new InvalidInput(`${path} is not a text file`);
      budget.left -= info.size;
      out.push({ path: real, text });
    }
    return out;
  }

  private async walk(dir: string, depth: number, out: LocalDocument[], budget: { left: number }): Promise<void> {
    if (depth > MAX_DEPTH) return;
    const entries = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort();
    for (const name of entries) {
      if (out.length >= MAX_FILES) return;
      let real: string;
      try {
        real = await realpath(join(dir, name));
      } catch {
        continue;
      }
      if (!(await this.inside(real))) continue;
      const info = await stat(real);
      if (info.isDirectory()) await this.walk(real, depth + 1, out, budget);
      else if (info.isFile() && info.size <= this.config.qgptFileLimit && info.size <= budget.left) {
        const text = await this.readFile(real);
        if (text !== null && text.trim()) {
          budget.left -= info.size;
          out.push({ path: real, text });
        }
      }
    }
  }

  /** The file's text, or null for binary content. O_NOFOLLOW|O_NONBLOCK: a path swapped for a link or FIFO since the checks is not followed or waited on. */
  private async readFile(real: string): Promise<string | null> {
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return null;
      const buffer = Buffer.alloc(Math.min(info.size, this.config.qgptFileLimit));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const bytes = buffer.subarray(0, bytesRead);
      if (bytes.includes(0)) return null;
      return bytes.toString('utf8');
    } finally {
      await handle.close();
    }
  }
}
