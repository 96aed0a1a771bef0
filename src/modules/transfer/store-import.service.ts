import { Injectable } from '@nestjs/common';
import { createReadStream, createWriteStream, ReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../common/errors/domain-errors';
import { ImportRuns, ImportSummary } from './import-runs';
import { ExportEnd, LineSplitter, NdjsonVerifier, parseLine, recordOf } from './ndjson';
import { RecordSchema } from './record-schema';
import { TransferStore } from './transfer.store';
import { drain, markDrained, readerOf } from './upload';

/** An NDJSON upload already read to a file and verified (see `spoolVerified`). */
export interface VerifiedUpload {
  path: string;
  end: ExportEnd;
  discard(): Promise<void>;
}

/**
 * Imports a Trove export (NDJSON, docs/TRANSFER.md), for HTTP (ImportStoreCommand) and the `trove`
 * command line: the whole file is verified first (header, every record, the end line's counts
 * and SHA-256) and nothing is written unless it is intact; then it is written in batches
 * (RecordImporter).
 */
@Injectable()
export class StoreImport {
  constructor(
    private readonly store: TransferStore,
    private readonly runs: ImportRuns,
  ) {}

  private get schema(): RecordSchema {
    return this.store.schema;
  }

  /**
   * Imports a Trove export (NDJSON) read from `input`. The whole file is verified first (header
   * version, every record, the end line's counts and SHA-256: a 400 naming the line otherwise,
   * with nothing written); then it is written in batches, each a transaction of whole groups.
   * Importing the same file again creates nothing. `input` is read once: a file stream opened on
   * a path is read from that path twice instead (verify, then import); any other stream is first
   * copied to a temporary file.
   */
  async importNdjson(
    input: NodeJS.ReadableStream,
    progress?: (done: number, total: number | null) => void,
  ): Promise<ImportSummary> {
    if (input instanceof ReadStream && typeof input.path === 'string' && input.bytesRead === 0) {
      const path = input.path;
      input.destroy();
      const verifier = new NdjsonVerifier(this.schema);
      for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) verifier.push(chunk as Buffer);
      const { end } = verifier.finish();
      return this.importVerified(path, end, progress);
    }
    const upload = await this.spoolVerified(input, Number.POSITIVE_INFINITY);
    try {
      return await this.importVerified(upload.path, upload.end, progress);
    } finally {
      await upload.discard();
    }
  }

  /**
   * Copies an NDJSON upload to a temporary file while verifying it (see importNdjson), refusing
   * it past `limit` bytes (413). When the upload is refused, up to 64 MiB more of it is read and
   * dropped so that the client sees the answer; `drained` says whether it was read to its end.
   */
  async spoolVerified(input: NodeJS.ReadableStream, limit: number): Promise<VerifiedUpload> {
    const dir = await mkdtemp(join(tmpdir(), 'trove-import-'));
    const discard = () => rm(dir, { recursive: true, force: true });
    const path = join(dir, 'import.ndjson');
    const file = createWriteStream(path);
    const verifier = new NdjsonVerifier(this.schema);
    const iterator = readerOf(input);
    let bytes = 0;
    try {
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
        const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : (step.value as Buffer);
        bytes += chunk.length;
        if (bytes > limit)
          throw new DomainError(
            'too-large',
            `the upload is larger than ${limit} bytes (TROVE_IMPORT_LIMIT); nothing was imported`,
          );
        verifier.push(chunk);
        if (!file.write(chunk)) await once(file, 'drain');
      }
      const { end } = verifier.finish();
      file.end();
      await once(file, 'finish');
      return { path, end, discard };
    } catch (error) {
      file.destroy();
      await discard();
      markDrained(error, await drain(iterator));
      throw error;
    }
  }

  /** Writes a verified export file (see importNdjson). */
  async importVerified(
    path: string,
    end: ExportEnd,
    progress?: (done: number, total: number | null) => void,
  ): Promise<ImportSummary> {
    const expected = end.records;
    return this.runs.exclusive(
      async (importer) => {
        progress?.(0, expected);
        const splitter = new LineSplitter();
        let n = 0;
        let ended = false;
        const take = async (line: Buffer) => {
          n++;
          if (n === 1 || ended || line.length === 0) return;
          const value = parseLine(line, n) as { kind?: unknown };
          if (value && typeof value === 'object' && value.kind === 'end') {
            ended = true;
            return;
          }
          await importer.add(recordOf(value, n, this.schema), line.length);
        };
        for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
          for (const line of splitter.push(chunk as Buffer)) await take(line);
        const last = splitter.end();
        if (last) await take(last);
        await importer.finish();
        return { format: 'ndjson', records: importer.done, ...importer.tally };
      },
      (done) => progress?.(Math.min(done, expected), expected),
    );
  }
}
