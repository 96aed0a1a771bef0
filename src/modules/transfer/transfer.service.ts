import { Injectable } from '@nestjs/common';
import { Mutex } from 'async-mutex';
import { createReadStream, ReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../common/database/database.service';
import { DomainError } from '../../common/errors/domain-errors';
import { nowIso } from '../../common/wire/common.wire';
import { AssetProjections } from '../assets/asset-unit-of-work';
import { LanguageDetector } from '../intelligence/language-detector.service';
import { ApplicationRegistry } from '../system/application.registry';
import { LocalUser } from '../system/local-user';
import { TROVE_VERSION } from '../../version';
import { ImportUnitOfWork } from './import-unit-of-work';
import { fileName, markdown } from './markdown';
import { EXPORT_FORMAT, EXPORT_VERSION, ExportEnd, ExportHeader, ExportWriter, LineSplitter, NdjsonVerifier, parseLine, recordOf, total } from './ndjson';
import { RecordImporter } from './record-importer';
import { KINDS, KIND_BY_NAME, KindSpec, ORPHAN_ANNOTATIONS } from './record-kinds';
import { KindSchema, RecordSchema } from './record-schema';
import { ConvertedSnippets, SnippetContext, massCodeSnippets, vsCodeSnippets } from './snippet-files';
import { Snapshot, TransferStore } from './transfer.store';
import { drain, markDrained, readerOf } from './upload';

type Row = Record<string, unknown>;
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
  /** The store's checksum at the snapshot (the end line's `checksum`; see TransferService.checksum). */
  checksum: string;
}

/** What an import did. */
export interface ImportSummary {
  format: 'ndjson' | 'vscode' | 'masscode';
  /** Records read (NDJSON: record lines; snippets: the records they became). */
  records: number;
  /** Records created, per kind. */
  created: Record<string, number>;
  /** Records not created, per kind: already in the store (same id or same natural key), referring to a record that is not, or (snippets) not snippets. */
  skipped: Record<string, number>;
}

/** Roots (assets, conversations) read per page of an export, with their members. */
const GROUP_PAGE = 500;
/** Rows per page of the other kinds. */
const PAGE = 2000;
/** Markdown files written at once. */
const FILE_WRITES = 16;

interface Page {
  schema: KindSchema;
  rows: Row[];
}

/** One group of an export: its root and its members per kind, in the order of the kinds. */
interface Group {
  root: Row;
  members: Array<{ schema: KindSchema; rows: Row[] }>;
}

/** An export whose snapshot is open and whose header is known: `run` writes it (and closes the snapshot), `cancel` closes it unwritten. */
export interface OpenExport {
  header: ExportHeader;
  run(out: NodeJS.WritableStream | null, progress?: Progress): Promise<ExportSummary>;
  cancel(): Promise<void>;
}

/** An NDJSON upload already read to a file and verified (see `spoolVerified`). */
export interface VerifiedUpload {
  path: string;
  end: ExportEnd;
  discard(): Promise<void>;
}

/**
 * Whole-store export and import (docs/TRANSFER.md), for HTTP (TransferController) and for the
 * `trove` command line, which calls it inside a Nest application context.
 *
 * Exports read one snapshot of the store (TransferStore.openSnapshot) a page at a time and wait
 * for the output to drain, so memory stays bounded whatever the store's size and the server
 * keeps serving meanwhile. Imports verify the whole file first (header, every record, the end
 * line's counts and SHA-256) and write nothing unless it is intact; then they write it in
 * batches (RecordImporter). One import runs at a time.
 */
@Injectable()
export class TransferService {
  private schemaOf: RecordSchema | null = null;
  private readonly importing = new Mutex();

  constructor(
    private readonly db: Database,
    private readonly store: TransferStore,
    private readonly uow: ImportUnitOfWork,
    private readonly projections: AssetProjections,
    private readonly applications: ApplicationRegistry,
    private readonly user: LocalUser,
    private readonly detector: LanguageDetector,
  ) {}

  private get schema(): RecordSchema {
    return (this.schemaOf ??= new RecordSchema(this.db.dataSource));
  }

  // ---------------------------------------------------------------- export

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

  private async write(snapshot: Snapshot, header: ExportHeader, writer: ExportWriter, progress?: Progress): Promise<ExportSummary> {
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
      const app = schema.spec.refers?.application_id && typeof record.application_id === 'string' ? identities.get(record.application_id) : undefined;
      return app ? line.replace(`"application_id":${JSON.stringify(record.application_id)}`, () => `"application_id":${app}`) : line;
    };
    const emit = async (schema: KindSchema, row: Row) => {
      const record = RecordSchema.record(schema, row);
      if (schema.spec.kind === 'application') identities.set(record.id as string, JSON.stringify([record.name, record.version, record.platform]));
      const line = `{"kind":"${schema.spec.kind}","record":${JSON.stringify(record)}}`;
      await writer.record(line, canonicalOf(schema, record, line));
      counts[schema.spec.kind]++;
      if (++records % 10_000 === 0) progress?.(records, expected);
    };
    for await (const page of this.pages(snapshot)) {
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
    return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported: header.exported, counts, records, bytes: writer.bytes, sha256, checksum };
  }

  /** Every record of the snapshot, a page at a time, in the export's order (record-kinds.ts). */
  private async *pages(snapshot: Snapshot): AsyncGenerator<Page | { root: KindSchema; groups: Group[] }> {
    const schema = this.schema;
    for (const spec of KINDS.filter((k) => k.section === 'shared')) {
      if (spec.kind === 'application') {
        const rows = (await this.store.all(snapshot, schema.get('application'), spec)).map((r) => RecordSchema.record(schema.get('application'), r));
        rows.sort((a, b) => compareKeys([a.name, a.version, a.platform, a.id], [b.name, b.version, b.platform, b.id]));
        yield { schema: schema.get('application'), rows };
      } else yield* this.walk(snapshot, spec);
    }
    for (const section of ['asset', 'conversation'] as const) {
      for await (const groups of this.groups(snapshot, section)) yield { root: schema.get(section), groups };
    }
    for (const spec of [
      KIND_BY_NAME.get('conversation_grounding_message')!,
      ORPHAN_ANNOTATIONS,
      ...KINDS.filter((k) => k.section === 'trailing' && k.kind !== 'conversation_grounding_message'),
    ]) {
      yield* this.walk(snapshot, spec);
    }
  }

  /** A walked kind, page by page in primary-key order. */
  private async *walk(snapshot: Snapshot, spec: KindSpec, pageSize = PAGE): AsyncGenerator<Page> {
    const schema = this.schema.get(spec.kind);
    let after: unknown[] | null = null;
    for (;;) {
      const rows = await this.store.page(snapshot, schema, spec, after, pageSize);
      if (rows.length) yield { schema, rows };
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = spec.walk!.map((c) => last[c]);
    }
  }

  /** The groups of a section (assets or conversations with their members), a page of roots at a time, in id order. */
  private async *groups(snapshot: Snapshot, section: 'asset' | 'conversation', pageSize = GROUP_PAGE): AsyncGenerator<Group[]> {
    const members = KINDS.filter((k) => k.section === section && k.member).map((k) => this.schema.get(k.kind));
    for await (const page of this.walk(snapshot, KIND_BY_NAME.get(section)!, pageSize)) {
      const first = page.rows[0].id as string;
      const last = page.rows[page.rows.length - 1].id as string;
      // One statement after another: a PostgreSQL connection takes one query at a time.
      const byRoot: Array<Map<string, Row[]>> = [];
      for (const schema of members) {
        const map = new Map<string, Row[]>();
        for (const row of await this.store.members(snapshot, schema, first, last)) {
          const root = row[schema.spec.member!.column] as string;
          let list = map.get(root);
          if (!list) map.set(root, (list = []));
          list.push(row);
        }
        byRoot.push(map);
      }
      yield page.rows.map((root) => ({
        root,
        members: members.map((schema, i) => ({ schema, rows: byRoot[i].get(root.id as string) ?? [] })),
      }));
    }
  }

  /**
   * One Markdown file per live snippet (not deleted, not pseudo) in `dir` (created if needed):
   * YAML front matter (id, name, language, tags, websites, created, updated, description), then
   * the text in a fenced code block labelled with its language. Files are named after the
   * snippet's name and a prefix of its id unique in the export; existing files of the same name
   * are replaced. Reads one snapshot, a page at a time.
   */
  async exportMarkdown(dir: string, progress?: Progress): Promise<{ files: number }> {
    await mkdir(dir, { recursive: true });
    const snapshot = await this.store.openSnapshot();
    try {
      const schema = this.schema;
      const expected = await this.store.count(snapshot, { ...KIND_BY_NAME.get('asset')!, where: 'deleted_at IS NULL AND pseudo = FALSE' });
      let files = 0;
      const writing = new Set<Promise<void>>();
      const write = async (path: string, text: string) => {
        const promise = writeFile(path, text, 'utf8').finally(() => writing.delete(promise));
        writing.add(promise);
        if (writing.size >= FILE_WRITES) await Promise.race(writing);
      };
      progress?.(0, expected);
      // Each snippet is written once its successor in id order is known (its file name depends on both neighbours).
      let previous: string | null = null;
      let held: { id: string; name: string | null; text: string } | null = null;
      const flush = async (next: string | null) => {
        if (!held) return;
        await write(join(dir, fileName(held.id, held.name, previous, next)), held.text);
        previous = held.id;
        held = null;
        if (++files % 1000 === 0) progress?.(files, expected);
      };
      for await (const groups of this.groups(snapshot, 'asset')) {
        const live = groups.filter((g) => g.root.deleted_at === null && !RecordSchema.record(schema.get('asset'), g.root).pseudo);
        const members = (kind: string, g: Group) => g.members.find((m) => m.schema.spec.kind === kind)?.rows ?? [];
        const tagIds = [...new Set(live.flatMap((g) => members('asset_tag', g).map((l) => l.tag_id as string)))];
        const websiteIds = [...new Set(live.flatMap((g) => members('asset_website', g).map((l) => l.website_id as string)))];
        const tags = new Map((await this.store.byIds(snapshot, schema.get('tag'), tagIds)).map((t) => [t.id as string, t.text as string]));
        const websites = new Map(
          (await this.store.byIds(snapshot, schema.get('website'), websiteIds)).map((w) => [w.id as string, { url: w.url as string, name: w.name as string }]),
        );
        for (const g of live) {
          const asset = g.root;
          const format = members('format', g)[0];
          const byTime = (a: Row, b: Row) => compareKeys([a.created_at, a.tag_id ?? a.website_id ?? a.id], [b.created_at, b.tag_id ?? b.website_id ?? b.id]);
          const description = members('annotation', g)
            .filter((a) => a.type === 'DESCRIPTION')
            .sort(byTime)[0];
          const text = markdown({
            id: asset.id as string,
            name: (asset.name as string | null) ?? null,
            language: (format?.specific as string | undefined) ?? 'UNKNOWN',
            tags: members('asset_tag', g)
              .sort(byTime)
              .map((l) => tags.get(l.tag_id as string))
              .filter((t): t is string => t !== undefined),
            websites: members('asset_website', g)
              .sort(byTime)
              .map((l) => websites.get(l.website_id as string))
              .filter((w): w is { url: string; name: string } => w !== undefined),
            created: asset.created_at as string,
            updated: asset.updated_at as string,
            description: (description?.text as string | undefined) ?? null,
            text: (format?.raw as string | undefined) ?? '',
          });
          await flush(asset.id as string);
          held = { id: asset.id as string, name: (asset.name as string | null) ?? null, text };
        }
      }
      await flush(null);
      await Promise.all(writing);
      progress?.(files, expected);
      return { files };
    } finally {
      await snapshot.close();
    }
  }

  // ---------------------------------------------------------------- import

  /**
   * Imports a Trove export (NDJSON) read from `input`. The whole file is verified first (header
   * version, every record, the end line's counts and SHA-256: a 400 naming the line otherwise,
   * with nothing written); then it is written in batches, each a transaction of whole groups.
   * Importing the same file again creates nothing. `input` is read once: a file stream opened on
   * a path is read from that path twice instead (verify, then import); any other stream is first
   * copied to a temporary file.
   */
  async importNdjson(input: NodeJS.ReadableStream, progress?: (done: number, total: number | null) => void): Promise<ImportSummary> {
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
        if (bytes > limit) throw new DomainError('too-large', `the upload is larger than ${limit} bytes (TROVE_IMPORT_LIMIT); nothing was imported`);
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
  async importVerified(path: string, end: ExportEnd, progress?: (done: number, total: number | null) => void): Promise<ImportSummary> {
    return this.importing.runExclusive(async () => {
      const expected = end.records;
      progress?.(0, expected);
      const importer = this.importer((done) => progress?.(Math.min(done, expected), expected));
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
      for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) for (const line of splitter.push(chunk as Buffer)) await take(line);
      const last = splitter.end();
      if (last) await take(last);
      await importer.finish();
      return { format: 'ndjson', records: importer.done, ...importer.tally };
    });
  }

  /**
   * Imports VS Code snippet files (`{name, text}`: the file's name, for its language and the
   * snippets' ids, and its JSON-with-comments text); see snippet-files.ts.
   */
  async importVsCode(files: Array<{ name: string; text: string }>): Promise<ImportSummary> {
    return this.importSnippets('vscode', (context) => vsCodeSnippets(files, context));
  }

  /** Imports massCode's `db.json` (massCode 2 and 3); see snippet-files.ts. */
  async importMassCode(dbJsonText: string): Promise<ImportSummary> {
    return this.importSnippets('masscode', (context) => massCodeSnippets(dbJsonText, context));
  }

  private async importSnippets(format: 'vscode' | 'masscode', convert: (context: SnippetContext) => ConvertedSnippets): Promise<ImportSummary> {
    const applicationId = await this.db.transaction((em) => this.applications.resolveId(em));
    const { records, skipped } = convert({
      applicationId,
      creator: this.user.id,
      now: nowIso,
      detect: (text) => this.detector.detectSync(text),
    });
    const schema = this.schema;
    // Checked and completed (omitted columns take their defaults) as an NDJSON record would be.
    records.forEach((line, i) => recordOf(line, i + 1, schema));
    return this.importing.runExclusive(async () => {
      const importer = this.importer();
      if (skipped) importer.skip('asset', skipped);
      for (const line of records) await importer.add(line);
      await importer.finish();
      return { format, records: importer.done, ...importer.tally };
    });
  }

  private importer(onBatch?: (done: number) => void): RecordImporter {
    return new RecordImporter({ store: this.store, schema: this.schema, uow: this.uow, projections: this.projections }, onBatch);
  }
}

function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = String(a[i] ?? '');
    const y = String(b[i] ?? '');
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
