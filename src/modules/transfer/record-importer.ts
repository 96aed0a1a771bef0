import { EntityManager } from 'typeorm';
import type { AnnotationEntity } from '../assets/annotation.entity';
import type { AssetEntity } from '../assets/asset.entity';
import { AssetChange, AssetProjections } from '../assets/asset-unit-of-work';
import type { FormatEntity } from '../assets/format.entity';
import { prepareSecrets } from '../assets/sensitives/secret-detector';
import type { TagEntity } from '../assets/tag.entity';
import type { WebsiteEntity } from '../assets/website.entity';
import type { AssetAggregate } from '../assets/wire/asset.wire';
import { ImportUnitOfWork, ImportedRecord } from './import-unit-of-work';
import { KINDS, KindSpec, KIND_BY_NAME } from './record-kinds';
import { RecordSchema } from './record-schema';
import { TransferStore } from './transfer.store';
import { RecordLine } from './ndjson';

type Row = Record<string, unknown>;

/** Records read and written per batch: a batch is cut only between groups, once it holds this many records or bytes. */
export const BATCH_RECORDS = 2000;
export const BATCH_BYTES = 8 * 1024 * 1024;

/** A group bigger than this many batches (a conversation of very many messages) is cut. */
const HUGE = 10;

/** Per kind: records created, and records skipped (already there, or referring to a record that is not). */
export interface ImportTally {
  created: Record<string, number>;
  skipped: Record<string, number>;
}

export interface ImporterParts {
  store: TransferStore;
  schema: RecordSchema;
  uow: ImportUnitOfWork;
  projections: AssetProjections;
}

/** What one batch did; applied to the importer only once its transaction committed (on SQLite a body may run twice). */
interface BatchOutcome {
  roots: { asset: Set<string>; conversation: Set<string> };
  created: Map<string, number>;
  skipped: Map<string, number>;
  remaps: Map<string, Map<string, string>>;
}

const keyOf = (values: unknown[]): string => values.map(String).join('\u0000');

/**
 * Writes records of the export format (from a Trove export, or converted from VS Code or
 * massCode snippets) in batches, each one transaction (ImportUnitOfWork):
 *
 * - records are inserted kind by kind in the export's order with ON CONFLICT DO NOTHING: an
 *   existing record (same id) is kept as it is, so importing twice creates nothing the second time;
 * - a tag, website, application or custom model whose natural key (text, URL, identity,
 *   fingerprint) an existing record of another id holds is that record: later references to the
 *   imported id are rewritten to it;
 * - the members of a group (an asset's formats, annotations and links; a conversation's
 *   messages, annotations and links) are written only when the group's root was created by this
 *   batch: an existing asset is not merged into;
 * - a row referring to a record that does not exist is skipped, not a failure;
 * - the assets the batch created are indexed for search through the assets' projections (what
 *   the create command does), in the batch's transaction, and every created asset,
 *   conversation, memory and custom model is announced on its change stream.
 *
 * A batch is cut only between groups, so a batch that fails leaves no asset without its formats.
 */
export class RecordImporter {
  private batch = new Map<string, Row[]>();
  private batchRecords = 0;
  private batchBytes = 0;
  /** Roots (assets, conversations) the last batch created: the members of a group cut in two follow them into the next batch. */
  private carried = { asset: new Set<string>(), conversation: new Set<string>() };
  /** Imported id -> existing id, per kind with a natural key. */
  private readonly remaps = new Map<string, Map<string, string>>();
  readonly tally: ImportTally = { created: {}, skipped: {} };
  /** Records written (or skipped) so far. */
  done = 0;

  constructor(
    private readonly parts: ImporterParts,
    private readonly onBatch?: (done: number) => void,
    private readonly limits = { records: BATCH_RECORDS, bytes: BATCH_BYTES },
  ) {}

  /** Adds one record (`bytes`: its size, for cutting batches); may write the batch before it. */
  async add(line: RecordLine, bytes = 0): Promise<void> {
    const spec = KIND_BY_NAME.get(line.kind)!;
    const full = this.batchRecords >= this.limits.records || this.batchBytes >= this.limits.bytes;
    // Between groups; inside one only when it is huge (its root, created by an earlier batch, is carried over).
    if (
      full &&
      (!spec.member || this.batchRecords >= HUGE * this.limits.records || this.batchBytes >= HUGE * this.limits.bytes)
    )
      await this.flush();
    let rows = this.batch.get(line.kind);
    if (!rows) this.batch.set(line.kind, (rows = []));
    rows.push(line.record);
    this.batchRecords++;
    this.batchBytes += bytes;
  }

  /** Counts a record that was not even read as one (a snippet in massCode's trash, ...). */
  skip(kind: string, n = 1): void {
    this.tally.skipped[kind] = (this.tally.skipped[kind] ?? 0) + n;
  }

  /** Writes what is left. */
  async finish(): Promise<void> {
    await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.batchRecords === 0) return;
    const batch = this.batch;
    const records = this.batchRecords;
    this.batch = new Map();
    this.batchRecords = 0;
    this.batchBytes = 0;
    // The secrets scan of the batch's texts, before its transaction (the projection that stores
    // them finds them made): the writer's queue does not wait on it.
    await prepareSecrets(this.firstTexts(batch));
    const outcome = await this.parts.uow.run(({ em, changed }) => this.write(em, batch, changed));
    // A batch that created no root of a section is inside the group the previous one cut: it stays carried.
    if (outcome.roots.asset.size) this.carried.asset = outcome.roots.asset;
    if (outcome.roots.conversation.size) this.carried.conversation = outcome.roots.conversation;
    for (const [kind, n] of outcome.created) this.tally.created[kind] = (this.tally.created[kind] ?? 0) + n;
    for (const [kind, n] of outcome.skipped) if (n) this.tally.skipped[kind] = (this.tally.skipped[kind] ?? 0) + n;
    for (const [kind, remaps] of outcome.remaps) {
      let known = this.remaps.get(kind);
      if (!known) this.remaps.set(kind, (known = new Map()));
      for (const [from, to] of remaps) known.set(from, to);
    }
    this.done += records;
    this.onBatch?.(this.done);
  }

  /** The text of each asset's first format in the batch (what AssetSecrets scans). */
  private firstTexts(batch: Map<string, Row[]>): string[] {
    const first = new Map<string, FormatEntity>();
    for (const row of batch.get('format') ?? []) {
      const format = RecordSchema.entity<FormatEntity>(this.parts.schema.get('format'), row);
      const known = first.get(format.assetId);
      if (!known || format.position < known.position || (format.position === known.position && format.id < known.id))
        first.set(format.assetId, format);
    }
    return [...first.values()].map((f) => f.raw ?? '');
  }

  private async write(
    em: EntityManager,
    batch: Map<string, Row[]>,
    changed: (change: ImportedRecord) => void,
  ): Promise<BatchOutcome> {
    const { store, schema } = this.parts;
    const roots = { asset: new Set<string>(), conversation: new Set<string>() };
    const outcome: BatchOutcome = { roots, created: new Map(), skipped: new Map(), remaps: new Map() };
    const remapOf = (kind: string, id: unknown): unknown =>
      typeof id === 'string' ? (outcome.remaps.get(kind)?.get(id) ?? this.remaps.get(kind)?.get(id) ?? id) : id;
    const inserted = new Map<string, Row[]>();

    for (const spec of KINDS) {
      const given = batch.get(spec.kind);
      if (given?.length) {
        const kind = schema.get(spec.kind);
        let rows = spec.refers ? given.map((row) => rewrite(row, spec.refers!, remapOf)) : given;
        if (spec.member) {
          const section = spec.section as 'asset' | 'conversation';
          const root = (row: Row) => row[spec.member!.column] as string | null;
          rows = rows.filter(
            (row) => root(row) === null || roots[section].has(root(row)!) || this.carried[section].has(root(row)!),
          );
        }
        const keys = await store.insert(em, kind, rows);
        const written = new Set(keys.map(keyOf));
        const isNew = (row: Row) => written.has(keyOf(kind.primary.map((k) => row[k])));
        const fresh = rows.filter(isNew);
        inserted.set(spec.kind, fresh);
        outcome.created.set(spec.kind, fresh.length);
        outcome.skipped.set(spec.kind, given.length - fresh.length);
        if (spec.kind === 'asset' || spec.kind === 'conversation')
          for (const row of fresh) roots[spec.kind].add(row.id as string);
        if (spec.natural) {
          const matched = await store.naturalMatches(
            em,
            kind,
            rows.filter((row) => !isNew(row)),
          );
          if (matched.size) outcome.remaps.set(spec.kind, matched);
        }
      }
      if (spec.kind === 'format') await this.dropBare(em, inserted, outcome);
    }
    for (const spec of KINDS) announce(spec, inserted.get(spec.kind) ?? [], changed);
    await this.index(em, inserted);
    // Members of an asset created by an earlier batch (a group that was cut): index it again, from its rows.
    const grown = new Set(
      KINDS.filter((k) => k.section === 'asset' && k.member).flatMap((k) =>
        (inserted.get(k.kind) ?? [])
          .map((row) => row.asset_id as string)
          .filter((id) => this.carried.asset.has(id) && !roots.asset.has(id)),
      ),
    );
    for (const id of grown) await this.parts.projections.apply(em, [{ id, change: 'updated' }]);
    return outcome;
  }

  /**
   * A live asset is never left without a format (its reads need one): an asset this batch created
   * none of whose formats could be written (a format id already taken, an application that does
   * not exist: a hand-made file) is removed again and counted as skipped, its other records with it.
   */
  private async dropBare(em: EntityManager, inserted: Map<string, Row[]>, outcome: BatchOutcome): Promise<void> {
    const assets = inserted.get('asset') ?? [];
    const formatted = new Set((inserted.get('format') ?? []).map((row) => row.asset_id));
    const bare = assets.filter((a) => a.deleted_at === null && !formatted.has(a.id));
    if (bare.length === 0) return;
    await this.parts.store.remove(
      em,
      this.parts.schema.get('asset'),
      bare.map((a) => a.id as string),
    );
    inserted.set(
      'asset',
      assets.filter((a) => !bare.includes(a)),
    );
    for (const a of bare) outcome.roots.asset.delete(a.id as string);
    outcome.created.set('asset', (outcome.created.get('asset') ?? 0) - bare.length);
    outcome.skipped.set('asset', (outcome.skipped.get('asset') ?? 0) + bare.length);
  }

  /** Indexes the live assets the batch created, as their create would have (AssetProjections), all of them in one call (SearchIndex.indexCreated). */
  private async index(em: EntityManager, inserted: Map<string, Row[]>): Promise<void> {
    const assets = (inserted.get('asset') ?? []).filter((a) => a.deleted_at === null);
    if (assets.length === 0) return;
    const { store, schema, projections } = this.parts;
    const group = <T>(kind: string, build: (row: Row) => T): Map<string, Array<{ row: Row; value: T }>> => {
      const out = new Map<string, Array<{ row: Row; value: T }>>();
      for (const row of inserted.get(kind) ?? []) {
        const id = row.asset_id as string | null;
        if (!id) continue;
        let list = out.get(id);
        if (!list) out.set(id, (list = []));
        list.push({ row, value: build(row) });
      }
      return out;
    };
    const byTime = (a: { row: Row }, b: { row: Row }) =>
      compare(a.row.created_at, b.row.created_at) || compare(a.row.id ?? '', b.row.id ?? '');
    const formats = group('format', (row) => RecordSchema.entity<FormatEntity>(schema.get('format'), row));
    const annotations = group('annotation', (row) =>
      RecordSchema.entity<AnnotationEntity>(schema.get('annotation'), row),
    );
    const tagLinks = group('asset_tag', (row) => row.tag_id as string);
    const websiteLinks = group('asset_website', (row) => row.website_id as string);
    const ids = (links: Map<string, Array<{ value: string }>>) => [
      ...new Set([...links.values()].flatMap((list) => list.map((l) => l.value))),
    ];
    const records = async <T>(kind: string, wanted: string[]) =>
      new Map(
        (await store.byIds(em, schema.get(kind), wanted)).map((row) => [
          row.id as string,
          RecordSchema.entity<T>(schema.get(kind), RecordSchema.record(schema.get(kind), row)),
        ]),
      );
    const tags = await records<TagEntity>('tag', ids(tagLinks));
    const websites = await records<WebsiteEntity>('website', ids(websiteLinks));
    const changes: AssetChange[] = assets.map((row) => {
      const id = row.id as string;
      const linked = <T>(links: Map<string, Array<{ row: Row; value: string }>>, found: Map<string, T>) =>
        (links.get(id) ?? [])
          .sort((a, b) => compare(a.row.created_at, b.row.created_at) || compare(a.value, b.value))
          .map((l) => found.get(l.value))
          .filter((t): t is T => t !== undefined);
      const aggregate = {
        asset: RecordSchema.entity<AssetEntity>(schema.get('asset'), row),
        formats: (formats.get(id) ?? [])
          .sort((a, b) => compare(a.value.position, b.value.position) || compare(a.value.id, b.value.id))
          .map((f) => f.value),
        annotations: (annotations.get(id) ?? []).sort(byTime).map((a) => a.value),
        tags: linked(tagLinks, tags),
        websites: linked(websiteLinks, websites),
        summaries: [],
        sensitives: [],
      } as AssetAggregate;
      return { id, change: 'created', aggregate };
    });
    await projections.apply(em, changes);
  }
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a ?? '');
  const y = String(b ?? '');
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The row with its references to records matched by natural key rewritten (a copy when anything changes). */
function rewrite(
  row: Row,
  refers: Readonly<Record<string, string>>,
  remapOf: (kind: string, id: unknown) => unknown,
): Row {
  let out = row;
  for (const [column, kind] of Object.entries(refers)) {
    const to = remapOf(kind, row[column]);
    if (to !== row[column]) {
      if (out === row) out = { ...row };
      out[column] = to;
    }
  }
  return out;
}

/** The created records the change streams announce: live assets and conversations, memories, custom models. */
function announce(spec: KindSpec, rows: Row[], changed: (change: ImportedRecord) => void): void {
  if (!spec.topic) return;
  for (const row of rows) {
    if (row.deleted_at !== undefined && row.deleted_at !== null) continue;
    changed({ id: row.id as string, topic: spec.topic });
  }
}
