import { createHash, Hash } from 'node:crypto';
import { once } from 'node:events';
import { InvalidInput } from '../../common/errors/domain-errors';
import { RecordSchema } from './record-schema';

/** The first line's `format`. */
export const EXPORT_FORMAT = 'trove-export';
/** The version of the format this build writes and reads. */
export const EXPORT_VERSION = 1;
/** Longest line read (a record holds at most a few request bodies of text). */
export const MAX_LINE_BYTES = 256 * 1024 * 1024;

/** The first line of an export. */
export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** When the export's snapshot was taken (ISO 8601). */
  exported: string;
  /** The Trove version that wrote it. */
  trove: string;
  /** Records of each kind that follow. */
  counts: Record<string, number>;
}

/** The last line of an export: what came before it, so that a truncated or altered file is refused. */
export interface ExportEnd {
  kind: 'end';
  records: number;
  counts: Record<string, number>;
  /** SHA-256 (hex) of the record lines, each with its "\n": the bytes between the first and the last line. */
  sha256: string;
  /** The store's checksum (StoreExport.checksum): equal for two stores holding the same records. */
  checksum: string;
}

/** One record line, parsed. */
export interface RecordLine {
  kind: string;
  record: Record<string, unknown>;
}

/** Splits a byte stream into lines ("\n"-terminated; the last one may lack it), each at most MAX_LINE_BYTES. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLine = MAX_LINE_BYTES) {}

  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, at);
      if (this.pendingBytes + piece.length > this.maxLine)
        throw new InvalidInput(`a line is longer than ${this.maxLine} bytes`);
      lines.push(this.pending.length ? Buffer.concat([...this.pending, piece]) : piece);
      this.pending = [];
      this.pendingBytes = 0;
      start = at + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxLine) throw new InvalidInput(`a line is longer than ${this.maxLine} bytes`);
      this.pending.push(rest);
    }
    return lines;
  }

  /** The last line when the input did not end with "\n". */
  end(): Buffer | null {
    if (this.pendingBytes === 0) return null;
    const line = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isBlank(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

/** The JSON value of line `n`, or a 400 naming the line. */
export function parseLine(line: Buffer, n: number): unknown {
  try {
    return JSON.parse(utf8.decode(line));
  } catch {
    throw new InvalidInput(`line ${n} is not JSON (or not UTF-8)`);
  }
}

/** A record line's kind and record, checked against the kind's columns (omitted optional columns filled in); a 400 naming the line otherwise. */
export function recordOf(value: unknown, n: number, schema: RecordSchema): RecordLine {
  const line = value as { kind?: unknown; record?: unknown };
  if (typeof line !== 'object' || line === null || typeof line.kind !== 'string')
    throw new InvalidInput(`line ${n} has no "kind"`);
  const kind = schema.of(line.kind);
  if (!kind) throw new InvalidInput(`line ${n}: unknown kind "${line.kind}"`);
  const problem = RecordSchema.problem(kind, line.record);
  if (problem) throw new InvalidInput(`line ${n} (${line.kind}): ${problem}`);
  return { kind: line.kind, record: line.record as Record<string, unknown> };
}

/** Checks the first line: a Trove export of a version this build reads. */
export function headerOf(line: Buffer | null): ExportHeader {
  if (!line) throw new InvalidInput('the file is empty');
  const value = parseLine(line, 1) as Partial<ExportHeader> | null;
  if (typeof value !== 'object' || value === null || value.format !== EXPORT_FORMAT) {
    throw new InvalidInput(
      `not a Trove export: the first line must be {"format":"${EXPORT_FORMAT}","version":${EXPORT_VERSION},...}`,
    );
  }
  if (value.version !== EXPORT_VERSION) {
    throw new InvalidInput(
      `Trove export version ${JSON.stringify(value.version)} is not supported (this build reads version ${EXPORT_VERSION})`,
    );
  }
  const counts = value.counts && typeof value.counts === 'object' ? value.counts : {};
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported: String(value.exported ?? ''),
    trove: String(value.trove ?? ''),
    counts,
  };
}

/** The total of a counts object (the records a header announces). */
export function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + (Number.isFinite(n) ? n : 0), 0);
}

/**
 * Reads a whole export as it arrives, without keeping it: the header and its version, every
 * record against its kind's columns, and the end line against what came before (records per
 * kind and the SHA-256 of the record lines). `finish` fails on a file cut short, saying how far
 * it got. Nothing is written while a file is verified: an import verifies first.
 */
export class NdjsonVerifier {
  private readonly splitter = new LineSplitter();
  private readonly hash = createHash('sha256');
  private readonly counted = new Map<string, number>();
  private lines = 0;
  private records = 0;
  private header: ExportHeader | null = null;
  private end: ExportEnd | null = null;

  constructor(private readonly schema: RecordSchema) {}

  push(chunk: Buffer): void {
    for (const line of this.splitter.push(chunk)) this.line(line);
  }

  /** The header and end line of a complete, intact export; a 400 otherwise. */
  finish(): { header: ExportHeader; end: ExportEnd } {
    const last = this.splitter.end();
    if (last) this.line(last);
    if (!this.header) throw new InvalidInput('the file is empty');
    if (!this.end) {
      throw new InvalidInput(
        `the export is truncated: it ends after line ${this.lines} (${this.records} of the ${total(this.header.counts)} records its header announces) without its end line; nothing was imported`,
      );
    }
    return { header: this.header, end: this.end };
  }

  private line(line: Buffer): void {
    const n = ++this.lines;
    if (n === 1) {
      this.header = headerOf(line);
      return;
    }
    if (isBlank(line)) return;
    if (this.end) throw new InvalidInput(`line ${n}: data after the end line`);
    const value = parseLine(line, n) as { kind?: unknown };
    if (value && typeof value === 'object' && value.kind === 'end') {
      this.end = this.checkEnd(value as Partial<ExportEnd>, n);
      return;
    }
    const { kind } = recordOf(value, n, this.schema);
    this.counted.set(kind, (this.counted.get(kind) ?? 0) + 1);
    this.records++;
    this.hash.update(line);
    this.hash.update('\n');
  }

  private checkEnd(end: Partial<ExportEnd>, n: number): ExportEnd {
    const counts = end.counts && typeof end.counts === 'object' ? end.counts : {};
    const kinds = new Set([...Object.keys(counts), ...this.counted.keys()]);
    for (const kind of kinds) {
      if ((counts[kind] ?? 0) !== (this.counted.get(kind) ?? 0)) {
        throw new InvalidInput(
          `line ${n}: the end line counts ${counts[kind] ?? 0} ${kind} records, the file holds ${this.counted.get(kind) ?? 0}; nothing was imported`,
        );
      }
    }
    const sha256 = this.hash.digest('hex');
    if (end.sha256 !== sha256)
      throw new InvalidInput(
        `line ${n}: the records do not match the end line's sha256 (the file was altered or damaged); nothing was imported`,
      );
    return { kind: 'end', records: this.records, counts, sha256, checksum: String(end.checksum ?? '') };
  }
}

/**
 * Writes an export's lines to a stream in chunks, waiting whenever the stream asks to (its
 * `write` answers false) until it drains, and fails as soon as the stream is closed or errs (a
 * client that went away). Keeps the SHA-256 of the record lines and the store checksum (over the
 * canonical lines: see StoreExport.checksum) as it goes.
 */
export class ExportWriter {
  private chunk = '';
  private canonicalChunk = '';
  private readonly hash: Hash = createHash('sha256');
  private readonly canonical: Hash = createHash('sha256');
  bytes = 0;
  private failure: Error | null = null;

  constructor(
    private readonly out: NodeJS.WritableStream | null,
    private readonly chunkBytes = 256 * 1024,
  ) {
    (out as NodeJS.EventEmitter | null)?.on?.('error', (error: Error) => (this.failure ??= error));
  }

  /** A line that is not a record (header, end): not hashed. */
  async plain(line: string): Promise<void> {
    await this.flush();
    await this.write(`${line}\n`);
  }

  /** A record line and its canonical form (the same text unless given). */
  async record(line: string, canonical: string = line): Promise<void> {
    this.chunk += `${line}\n`;
    this.canonicalChunk += `${canonical}\n`;
    if (this.chunk.length >= this.chunkBytes) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.chunk) return;
    const chunk = this.chunk;
    this.hash.update(chunk);
    this.canonical.update(this.canonicalChunk);
    this.chunk = '';
    this.canonicalChunk = '';
    await this.write(chunk);
  }

  digests(): { sha256: string; checksum: string } {
    return { sha256: this.hash.digest('hex'), checksum: this.canonical.digest('hex') };
  }

  private async write(text: string): Promise<void> {
    this.bytes += Buffer.byteLength(text);
    const out = this.out;
    if (!out) return;
    this.check();
    if (out.write(text)) return;
    const stream = out as NodeJS.WritableStream & NodeJS.EventEmitter;
    const ac = new AbortController();
    // `drain` once the stream has room again; `close` or `error` when it never will.
    await Promise.race([
      once(stream, 'drain', { signal: ac.signal }),
      once(stream, 'close', { signal: ac.signal }),
      once(stream, 'error', { signal: ac.signal }),
    ]).finally(() => ac.abort());
    this.check();
  }

  private check(): void {
    const stream = this.out as (NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean }) | null;
    if (this.failure) throw this.failure;
    if (stream?.destroyed || stream?.writableEnded)
      throw new Error('the export stream was closed before the export ended');
  }
}
