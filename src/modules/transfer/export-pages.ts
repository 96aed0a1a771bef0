import { Injectable } from '@nestjs/common';
import { KINDS, KIND_BY_NAME, KindSpec, ORPHAN_ANNOTATIONS } from './record-kinds';
import { KindSchema, RecordSchema } from './record-schema';
import { Snapshot, TransferStore } from './transfer.store';

export type Row = Record<string, unknown>;

/** Roots (assets, conversations) read per page of an export, with their members. */
const GROUP_PAGE = 500;
/** Rows per page of the other kinds. */
const PAGE = 2000;

export interface Page {
  schema: KindSchema;
  rows: Row[];
}

/** One group of an export: its root and its members per kind, in the order of the kinds. */
export interface Group {
  root: Row;
  members: Array<{ schema: KindSchema; rows: Row[] }>;
}

/**
 * The records of a snapshot of the store a page at a time, in the export's order
 * (record-kinds.ts): what the NDJSON export writes (StoreExport) and the Markdown export reads
 * (MarkdownExport).
 */
@Injectable()
export class ExportPages {
  constructor(private readonly store: TransferStore) {}

  private get schema(): RecordSchema {
    return this.store.schema;
  }

  /** Every record of the snapshot, a page at a time, in the export's order (record-kinds.ts). */
  async *pages(snapshot: Snapshot): AsyncGenerator<Page | { root: KindSchema; groups: Group[] }> {
    const schema = this.schema;
    for (const spec of KINDS.filter((k) => k.section === 'shared')) {
      if (spec.kind === 'application') {
        const rows = (await this.store.all(snapshot, schema.get('application'), spec)).map((r) =>
          RecordSchema.record(schema.get('application'), r),
        );
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
  async *groups(snapshot: Snapshot, section: 'asset' | 'conversation', pageSize = GROUP_PAGE): AsyncGenerator<Group[]> {
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
}

export function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = String(a[i] ?? '');
    const y = String(b[i] ?? '');
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
