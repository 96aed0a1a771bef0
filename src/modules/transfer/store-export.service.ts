import { Injectable } from '@nestjs/common';
import { TROVE_VERSION } from '../../version';
import { ExportPages, Row } from './export-pages';
import { EXPORT_FORMAT, EXPORT_VERSION, ExportEnd, ExportHeader, ExportWriter, total } from './ndjson';
import { KINDS } from './record-kinds';
import { KindSchema, RecordSchema } from './record-schema';
import { Snapshot, TransferStore } from './transfer.store';

export type Progress = (done: number, total: number) => void;

/** What an export wrote. */
export interface ExportSummary {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** When its snapshot of the store was taken. */
  exported: string;
  /** Records written per kind. */
  counts: Record<string, number>;
  records: number;
  /** Bytes written, header and end line included. */
  bytes: number;
  /** SHA-256 of the record lines (the end line's `sha256`). */
  sha256: string;
  /** The store's checksum at the snapshot (the end line's `checksum`; see StoreExport.checksum). */
  checksum: string;
}

/** An export whose snapshot is open and whose header is known: `run` writes it (and closes the snapshot), `cancel` closes it unwritten. */
export interface OpenExport {
  header: ExportHeader;
  run(out: NodeJS.WritableStream | null, progress?: Progress): Promise<ExportSummary>;
  cancel(): Promise<void>;
}

/**
 * The whole store as NDJSON (docs/TRANSFER.md), for HTTP (ExportStoreQuery) and the `trove`
 * command line. An export reads one snapshot of the store (TransferStore.openSnapshot) a page at
 * a time and waits for the output to drain, so memory stays bounded whatever the store's size
 * and the server keeps serving meanwhile.
 */
@Injectable()
export class StoreExport {
  constructor(
    private readonly store: TransferStore,
    private readonly pages: ExportPages,
  ) {}

  /** Writes the whole store to `out` as NDJSON (docs/TRANSFER.md), waiting for it to drain; `out` is not ended. */
  async exportNdjson(out: NodeJS.WritableStream, progress?: Progress): Promise<ExportSummary> {
    return (await this.openExport()).run(out, progress);
  }

  /**
   * Takes the snapshot and counts its records (the header) before anything is written, so that
   * HTTP can still answer an error status when the store fails.
   */
  async openExport(): Promise<OpenExport> {
    const snapshot = await this.store.openSnapshot();
    let header: ExportHeader;
    try {
      header = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exported: new Date().toISOString(),
        trove: TROVE_VERSION,
        counts: await this.countsIn(snapshot),
      };
    } catch (error) {
      await snapshot.close();
      throw error;
    }
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await snapshot.close();
    };
    return {
      header,
      cancel: close,
      run: async (out, progress) => {
        try {
          return await this.write(snapshot, header, new ExportWriter(out), progress);
        } finally {
          await close();
        }
      },
    };
  }

  /** Records per exported kind in the store now. */
  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const spec of KINDS) out[spec.kind] = await this.store.countLive(spec);
    return out;
  }

  /**
   * A SHA-256 over every record the store would export, in the export's order, in a form that
   * does not depend on the store: an application counts by its identity (name, version,
   * platform) instead of its id and first-seen time, and so do the references to it (every store
   * records Trove itself as an application when it first starts, under an id of its own). Two
   * stores holding the same records have the same checksum: a backup restored into an empty
   * store has the checksum its export's end line carries (`checksum`).
   */
  async checksum(): Promise<string> {
    return (await (await this.openExport()).run(null)).checksum;
  }

  private async countsIn(snapshot: Snapshot): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const spec of KINDS) counts[spec.kind] = await this.store.count(snapshot, spec);
    return counts;
  }

  private async write(
    snapshot: Snapshot,
    header: ExportHeader,
    writer: ExportWriter,
    progress?: Progress,
  ): Promise<ExportSummary> {
    const expected = total(header.counts);
    const counts: Record<string, number> = Object.fromEntries(KINDS.map((k) => [k.kind, 0]));
    let records = 0;
    await writer.plain(JSON.stringify(header));
    progress?.(0, expected);
    // Applications by identity, for the canonical form (see checksum).
    const identities = new Map<string, string>();
    const canonicalOf = (schema: KindSchema, record: Row, line: string): string => {
      if (schema.spec.kind === 'application') {
        const rest = { ...record };
        delete rest.id;
        delete rest.created_at;
        return `{"kind":"application","record":${JSON.stringify(rest)}}`;
      }
      const app =
        schema.spec.refers?.application_id && typeof record.application_id === 'string'
          ? identities.get(record.application_id)
          : undefined;
      return app
        ? line.replace(`"application_id":${JSON.stringify(record.application_id)}`, () => `"application_id":${app}`)
        : line;
    };
    const emit = async (schema: KindSchema, row: Row) => {
      const record = RecordSchema.record(schema, row);
      if (schema.spec.kind === 'application')
        identities.set(record.id as string, JSON.stringify([record.name, record.version, record.platform]));
      const line = `{"kind":"${schema.spec.kind}","record":${JSON.stringify(record)}}`;
      await writer.record(line, canonicalOf(schema, record, line));
      counts[schema.spec.kind]++;
      if (++records % 10_000 === 0) progress?.(records, expected);
    };
    for await (const page of this.pages.pages(snapshot)) {
      if ('rows' in page) for (const row of page.rows) await emit(page.schema, row);
      else
        for (const group of page.groups) {
          await emit(page.root, group.root);
          for (const member of group.members) for (const row of member.rows) await emit(member.schema, row);
        }
    }
    await writer.flush();
    const { sha256, checksum } = writer.digests();
    const end: ExportEnd = { kind: 'end', records, counts, sha256, checksum };
    await writer.plain(JSON.stringify(end));
    progress?.(records, expected);
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported: header.exported,
      counts,
      records,
      bytes: writer.bytes,
      sha256,
      checksum,
    };
  }
}
