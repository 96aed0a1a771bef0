import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput, NotFound } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { urlProblem } from '../asset-text';
import { WorkstreamSummaryUnitOfWork } from '../workstream-summary-unit-of-work';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';
import { WorkstreamSummaryRow, WorkstreamSummaryWriter } from '../workstream-summary.writer';
import { WorkstreamSummaryWire, workstreamSummaryWire } from '../wire/workstream-summary.wire';

/** A memory to save: what an agent (MCP `create_pieces_memory`) or a client (POST /workstream_summaries/create) sends. */
export interface NewWorkstreamSummary {
  /** A short title: 1 to 200 characters. */
  name: string;
  /** At most 2,000 characters. */
  description?: string;
  /** The full markdown text: 1 to 100,000 characters. */
  text: string;
  /** At most 200 characters (a name or the project's root directory). */
  project?: string;
  /** File paths: at most 100, each 1 to 1,024 characters. */
  files?: string[];
  /** http(s) URLs: at most 100, each at most 2,048 characters. */
  links?: string[];
  /** The connected client or application that saves it: at most 200 characters. */
  source?: string;
  /** Live assets to link it to: at most 100. */
  assetIds?: string[];
  /** The time it is about (ISO-8601 or anything Date.parse reads); its creation when left out. */
  about?: string;
}

/** The bounds of NewWorkstreamSummary. */
export const SUMMARY_LIMITS = {
  name: 200,
  description: 2000,
  text: 100_000,
  project: 200,
  source: 200,
  entries: 100,
  file: 1024,
  link: 2048,
  assets: 100,
} as const;

/**
 * Saves a workstream summary (a memory) and links it to the given assets, in one unit of work
 * (topic `workstream_summaries`; the linked assets are announced too). The same memory again
 * (memoryContentHash: its text by the same client, about the same time when the client gives one)
 * stores nothing and answers the one kept. Invalid input is a 400
 * naming every problem, an unknown or deleted asset a 404; nothing is stored then. Answers the
 * summary as GET /workstream_summary/{id} does.
 */
export class CreateWorkstreamSummaryCommand extends Command<WorkstreamSummaryWire> {
  constructor(readonly summary: NewWorkstreamSummary) {
    super();
  }
}

/** `summary` checked against SUMMARY_LIMITS (whatever its runtime types), as the row to store and the assets to link. */
export function validateNewWorkstreamSummary(summary: NewWorkstreamSummary): {
  row: Omit<WorkstreamSummaryRow, 'id' | 'createdAt' | 'aboutAt'>;
  assetIds: string[];
  about: string | null;
} {
  const problems: string[] = [];
  const input = (summary ?? {}) as unknown as Record<string, unknown>;
  /** A text field: trimmed when `trim`, undefined when absent (or empty and optional). */
  const text = (
    field: string,
    max: number,
    options: { required?: boolean; trim?: boolean } = {},
  ): string | undefined => {
    const value = input[field];
    if (value === undefined || value === null) {
      if (options.required) problems.push(`${field} is required`);
      return undefined;
    }
    if (typeof value !== 'string') {
      problems.push(`${field} must be a string`);
      return undefined;
    }
    if (value.includes('\u0000')) problems.push(`${field} must not contain NUL characters`);
    const kept = options.trim ? value.trim() : value;
    if (!kept.trim()) {
      if (options.required) problems.push(`${field} must not be empty`);
      return undefined;
    }
    if (kept.length > max) problems.push(`${field} must be at most ${max} characters (it has ${kept.length})`);
    return kept;
  };
  const list = (field: string, check: (entry: string, at: string) => string | null): string[] => {
    const value = input[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      problems.push(`${field} must be an array of strings`);
      return [];
    }
    if (value.length > SUMMARY_LIMITS.entries)
      problems.push(`${field} must have at most ${SUMMARY_LIMITS.entries} entries (it has ${value.length})`);
    const out = new Set<string>();
    value.slice(0, SUMMARY_LIMITS.entries).forEach((entry, i) => {
      const at = `${field}[${i}]`;
      if (typeof entry !== 'string') return void problems.push(`${at} must be a string`);
      if (entry.includes('\u0000')) return void problems.push(`${at} must not contain NUL characters`);
      const problem = check(entry.trim(), at);
      if (problem) problems.push(problem);
      else out.add(entry.trim());
    });
    return [...out];
  };

  const name = text('name', SUMMARY_LIMITS.name, { required: true, trim: true });
  const description = text('description', SUMMARY_LIMITS.description);
  const body = text('text', SUMMARY_LIMITS.text, { required: true });
  const project = text('project', SUMMARY_LIMITS.project, { trim: true });
  const source = text('source', SUMMARY_LIMITS.source, { trim: true });
  const files = list('files', (path, at) =>
    !path
      ? `${at} must not be empty`
      : path.length > SUMMARY_LIMITS.file
        ? `${at} must be at most ${SUMMARY_LIMITS.file} characters`
        : null,
  );
  const links = list('links', (link, at) => {
    if (link.length > SUMMARY_LIMITS.link) return `${at} must be at most ${SUMMARY_LIMITS.link} characters`;
    const problem = urlProblem(link);
    return problem ? `${at} ${problem}` : null;
  });
  let about: string | null = null;
  if (input.about !== undefined && input.about !== null) {
    const at = typeof input.about === 'string' ? Date.parse(input.about) : NaN;
    if (!Number.isFinite(at) || at < Date.UTC(0, 0, 1) || at > Date.UTC(9999, 11, 31))
      problems.push('about must be a date and time (ISO-8601)');
    else about = new Date(at).toISOString();
  }
  const assetIds = list('assetIds', (id, at) => (id ? null : `${at} must not be empty`));
  if (assetIds.length > SUMMARY_LIMITS.assets)
    problems.push(`assetIds must have at most ${SUMMARY_LIMITS.assets} entries`);
  if (problems.length) throw new InvalidInput(problems);
  return {
    row: {
      name: name!,
      description: description ?? null,
      text: body!,
      project: project ?? null,
      files,
      links,
      source: source ?? null,
    },
    assetIds,
    about,
  };
}

@CommandHandler(CreateWorkstreamSummaryCommand)
export class CreateWorkstreamSummaryHandler implements ICommandHandler<CreateWorkstreamSummaryCommand> {
  constructor(
    private readonly reader: WorkstreamSummaryReader,
    private readonly writer: WorkstreamSummaryWriter,
    private readonly uow: WorkstreamSummaryUnitOfWork,
  ) {}

  async execute({ summary }: CreateWorkstreamSummaryCommand): Promise<WorkstreamSummaryWire> {
    const { row, assetIds, about } = validateNewWorkstreamSummary(summary);
    const fresh = randomUUID();
    return this.uow.run(
      async ({ em, changed }) => {
        if (assetIds.length) {
          const live = await this.reader.liveAssets(em, assetIds);
          const missing = assetIds.filter((asset) => !live.has(asset));
          if (missing.length)
            throw new NotFound(`asset${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found (or deleted)`);
        }
        const now = nowIso();
        // The same memory saved again (its text, by the same client, about the same time when one is given) is the one kept: answered as it is.
        const { id, inserted } = await this.writer.insert(
          em,
          { id: fresh, ...row, createdAt: now, aboutAt: about ?? now },
          about !== null,
        );
        if (inserted) {
          await this.writer.linkAssets(em, id, assetIds, now);
          changed({ id, change: 'created', assets: assetIds });
        }
        return workstreamSummaryWire(await this.reader.linked(em, id));
      },
      // Without assets it writes only rows of its own (see Database.transaction).
      { independent: assetIds.length === 0 },
    );
  }
}
