import {
  createReadStream,
  createWriteStream,
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AppConfig } from '../../common/config/app-config';
import { TransferModule } from '../../modules/transfer/transfer.module';
import { MarkdownExport } from '../../modules/transfer/markdown-export.service';
import { SnippetImport } from '../../modules/transfer/snippet-import.service';
import { StoreExport } from '../../modules/transfer/store-export.service';
import { StoreImport } from '../../modules/transfer/store-import.service';
import { withContext } from '../context';
import { CliError, UsageError } from '../exit-codes';
import { fsyncPath } from '../files';
import { Output } from '../output';
import { StoreOptions, describeStore, requireSqliteIdle, requireSqliteStore, storeConfig } from '../store';

export interface ExportOptions extends StoreOptions {
  markdown?: string;
}

export type ImportFormat = 'ndjson' | 'vscode' | 'masscode';

export interface ImportOptions extends StoreOptions {
  format: ImportFormat;
}

/** Counts per kind as `kind n, kind n` (kinds with none left out). */
function countsLine(counts: Record<string, number>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  return entries.length ? entries.map(([kind, n]) => `${kind} ${n}`).join(', ') : 'none';
}

/** A summary object as lines `key: value` (counts per kind on one line, other objects as JSON). */
function printSummary(title: string, summary: object, out: Output): void {
  out.line(title);
  for (const [key, value] of Object.entries(summary)) {
    const counts =
      typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'number');
    out.line(
      `  ${key}: ${counts ? countsLine(value as Record<string, number>) : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    );
  }
}

/** The store's record counts and checksum as the export computes them (comparable across SQLite and PostgreSQL). */
async function printStoreTotals(service: Transfer, out: Output): Promise<void> {
  out.line(`Records in the store: ${countsLine(await service.export.counts())}`);
  out.line(`Records checksum: ${await service.export.checksum()}`);
}

/** The transfer module's services, in an application context on the store. */
interface Transfer {
  export: StoreExport;
  markdown: MarkdownExport;
  import: StoreImport;
  snippets: SnippetImport;
}

/** Runs `work` with the transfer services of an application context on `config`'s store. */
function withTransfer<T>(config: AppConfig, work: (service: Transfer) => Promise<T>): Promise<T> {
  return withContext(config, [TransferModule], (app) =>
    work({
      export: app.get(StoreExport),
      markdown: app.get(MarkdownExport),
      import: app.get(StoreImport),
      snippets: app.get(SnippetImport),
    }),
  );
}

/** Waits until a file stream has flushed and closed. */
function finished(
  stream: NodeJS.WritableStream & {
    once(event: string, listener: (...args: unknown[]) => void): unknown;
  },
): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.once('close', () => resolve());
    stream.end();
  });
}

/**
 * `trove export <file|->`: every record of the store as NDJSON to a file (written whole, then
 * renamed into place) or to stdout (`-`; the command's own messages then go to stderr), and with
 * `--markdown <dir>` also as Markdown files. Reads only (safe while a server runs on the store).
 */
export async function exportStore(file: string, options: ExportOptions, stdout: Output): Promise<void> {
  const toStdout = file === '-';
  const out = toStdout ? new Output(true) : stdout;
  const config = storeConfig(options);
  if (config.dialect === 'sqlite') requireSqliteStore(config);
  const target = toStdout ? null : resolve(file);
  if (target && !existsSync(dirname(target))) throw new CliError(`no directory ${dirname(target)}`);
  out.line(`Exporting ${describeStore(config)}`);
  await withTransfer(config, async (service) => {
    const progress = out.progress('Exporting');
    let summary: object;
    if (target) {
      const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
      const stream = createWriteStream(partial, { mode: 0o600 });
      try {
        summary = await service.export.exportNdjson(stream, progress.update);
        await finished(stream);
        fsyncPath(partial);
        renameSync(partial, target);
      } catch (error) {
        stream.destroy();
        rmSync(partial, { force: true });
        throw error;
      } finally {
        progress.stop();
      }
    } else {
      try {
        summary = await service.export.exportNdjson(process.stdout, progress.update);
      } finally {
        progress.stop();
      }
    }
    printSummary(`Exported to ${target ?? 'stdout'}:`, summary, out);
    if (options.markdown) {
      const dir = resolve(options.markdown);
      const markdown = out.progress('Markdown');
      try {
        const { files } = await service.markdown.exportMarkdown(dir, markdown.update);
        markdown.stop();
        out.line(`Wrote ${files} Markdown ${files === 1 ? 'file' : 'files'} to ${dir}`);
      } finally {
        markdown.stop();
      }
    }
  });
}

/** VS Code snippet files: one file, or every *.json / *.code-snippets file of a directory. */
function vsCodeFiles(path: string): Array<{ name: string; text: string }> {
  if (statSync(path).isDirectory()) {
    const names = readdirSync(path)
      .filter((name) => /\.(json|code-snippets)$/i.test(name))
      .sort();
    const files = names.map((name) => join(path, name)).filter((p) => statSync(p).isFile());
    if (files.length === 0) throw new CliError(`no *.json or *.code-snippets files in ${path}`);
    return files.map((p) => ({
      name: basename(p),
      text: readFileSync(p, 'utf8'),
    }));
  }
  return [{ name: basename(path), text: readFileSync(path, 'utf8') }];
}

/** All of stdin as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `trove import <file>`: records into the configured store, through the same use cases as the
 * HTTP API (the transfer module's services). On SQLite it refuses while another process (a server) has the
 * store open: stop the server, import, start it again. PostgreSQL takes several writers: the
 * import runs beside the servers, whose change streams see the new records.
 */
export async function importStore(file: string, options: ImportOptions, out: Output): Promise<void> {
  const fromStdin = file === '-';
  if (fromStdin && options.format === 'vscode')
    throw new UsageError('--format vscode reads files or a directory, not stdin');
  const source = fromStdin ? null : resolve(file);
  if (source && !existsSync(source)) throw new CliError(`no such file or directory: ${source}`);
  const config = storeConfig(options);
  if (config.dialect === 'sqlite')
    await requireSqliteIdle(
      config,
      'importing',
      'Or import into the running server over HTTP: POST /trove/import (docs/TRANSFER.md)',
    );
  out.line(`Importing ${source ?? 'stdin'} (${options.format}) into ${describeStore(config)}`);
  await withTransfer(config, async (service) => {
    let summary: object;
    if (options.format === 'ndjson') {
      const progress = out.progress('Importing');
      try {
        summary = await service.import.importNdjson(source ? createReadStream(source) : process.stdin, progress.update);
      } finally {
        progress.stop();
      }
    } else if (options.format === 'vscode') {
      summary = await service.snippets.importVsCode(vsCodeFiles(source!));
    } else {
      summary = await service.snippets.importMassCode(source ? readFileSync(source, 'utf8') : await readStdin());
    }
    printSummary('Imported:', summary, out);
    await printStoreTotals(service, out);
  });
}

/** The restored store's records as the application sees them (it boots on it as a server would). */
export async function printRecords(config: AppConfig, out: Output): Promise<void> {
  await withTransfer(config, (service) => printStoreTotals(service, out));
}
