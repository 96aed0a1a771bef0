import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../common/config/app-config';
import { DomainError, InvalidInput } from '../../../common/errors/domain-errors';
import { ImportSummary } from '../import-runs';
import { SnippetImport } from '../snippet-import.service';
import { StoreImport } from '../store-import.service';
import { drain, markDrained, readerOf } from '../upload';

export const IMPORT_FORMATS = ['ndjson', 'vscode', 'masscode'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Snippet files (VS Code, massCode) are read whole: at most this many bytes (or TROVE_IMPORT_LIMIT when lower). */
export const SNIPPET_FILE_LIMIT = 256 * 1024 * 1024;

/** Imports an uploaded file (POST /trove/import): a Trove export streamed to a temporary file, or a snippet file read whole. */
export class ImportStoreCommand extends Command<ImportSummary> {
  constructor(
    readonly format: ImportFormat,
    /** VS Code: the snippet file's name (its language, and the snippets' ids). */
    readonly name: string,
    /** The request body: a stream (NDJSON, octet-stream), or what the JSON parser made of a JSON body. */
    readonly body: unknown,
  ) {
    super();
  }
}

@CommandHandler(ImportStoreCommand)
export class ImportStoreHandler implements ICommandHandler<ImportStoreCommand> {
  constructor(
    private readonly imports: StoreImport,
    private readonly snippets: SnippetImport,
    private readonly config: AppConfig,
  ) {}

  async execute({ format, name, body }: ImportStoreCommand): Promise<ImportSummary> {
    if (body === undefined || body === null) throw new InvalidInput('send the file to import as the request body');
    if (format === 'ndjson') {
      const upload = await this.imports.spoolVerified(body as NodeJS.ReadableStream, this.config.importLimit);
      try {
        return await this.imports.importVerified(upload.path, upload.end);
      } finally {
        await upload.discard();
      }
    }
    const text = isStream(body)
      ? await readText(body, Math.min(SNIPPET_FILE_LIMIT, this.config.importLimit))
      : JSON.stringify(body);
    return format === 'vscode' ? this.snippets.importVsCode([{ name, text }]) : this.snippets.importMassCode(text);
  }
}

export function isStream(body: unknown): body is NodeJS.ReadableStream {
  return typeof body === 'object' && body !== null && typeof (body as NodeJS.ReadableStream).pipe === 'function';
}

async function readText(stream: NodeJS.ReadableStream, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = readerOf(stream);
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
    const buffer = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
    bytes += buffer.length;
    if (bytes > limit) {
      const error = new DomainError('too-large', `a snippet file is read whole: at most ${limit} bytes`);
      markDrained(error, await drain(iterator));
      throw error;
    }
    chunks.push(buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new InvalidInput('the file is not UTF-8 text');
  }
}
