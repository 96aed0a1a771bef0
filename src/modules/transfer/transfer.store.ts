import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { SqliteConnection, openSqlite } from '../../common/database/sqlite-driver';
import { KindSchema, RecordSchema } from './record-schema';
import { KindSpec } from './record-kinds';

type Row = Record<string, unknown>;

/**
 * One consistent view of the whole store for the length of an export, read by keyset pages:
 * on SQLite a connection of its own (query-only) holding one read transaction (WAL: it sees the
 * commits before its first read and none after, never blocks the writer, and its statements run
 * beside the server's own connections instead of queueing on them); on PostgreSQL a pooled
 * connection in one REPEATABLE READ READ ONLY transaction.
 */
export interface Snapshot {
  all<T = Row>(sql: string, params: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** node-sqlite3's `Database#all(sql, params, callback)` (its public API; sqlite-driver.ts types only the form without parameters). */
type SqliteAll = (sql: string, params: unknown[], callback: (error: Error | null, rows: unknown[]) => void) => void;

class SqliteSnapshot implements Snapshot {
  private constructor(private readonly connection: SqliteConnection) {}

  static async open(path: string): Promise<SqliteSnapshot> {
    const snapshot = new SqliteSnapshot(await openSqlite(path));
    try {
      for (const sql of ['PRAGMA query_only = ON', 'PRAGMA busy_timeout = 5000', 'BEGIN']) await snapshot.all(sql, []);
    } catch (error) {
      await snapshot.close();
      throw error;
    }
    return snapshot;
  }

  all<T>(sql: string, params: unknown[]): Promise<T[]> {
    const all = this.connection.all as unknown as SqliteAll;
    return new Promise<T[]>((resolve, reject) =>
      all.call(this.connection, sql, params, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
    );
  }

  async close(): Promise<void> {
    await this.all('ROLLBACK', []).catch(() => undefined);
    await new Promise<void>((resolve) => this.connection.close(() => resolve()));
  }
}

/**
 * Every SQL statement of the transfer module. A backup copies the rows of every module's
 * tables as they are, so this one repository reads and writes tables the other modules own (the
 * documented exception to "repositories own the SQL", docs/TRANSFER.md): the statements are made
 * from the entities' metadata (RecordSchema) and the kinds (record-kinds.ts), never from request
 * text. Imports insert with ON CONFLICT DO NOTHING (an existing record is kept as it is) and
 * skip a row whose referenced record does not exist instead of failing on the foreign key.
 */
@Injectable()
export class TransferStore {
  private readonly statements = new Map<string, string>();
  private schemaOf: RecordSchema | null = null;

  constructor(
    private readonly db: Database,
    private readonly config: AppConfig,
  ) {}

  get dialect(): 'sqlite' | 'postgres' {
    return this.db.dialect;
  }

  /** The exported tables' columns, from the entities' metadata (made once, when first needed). */
  get schema(): RecordSchema {
    return (this.schemaOf ??= new RecordSchema(this.db.dataSource));
  }

  /** A consistent read-only view of the store; close it when done. */
  async openSnapshot(): Promise<Snapshot> {
    if (this.db.dialect === 'sqlite') return SqliteSnapshot.open(this.config.sqlitePath);
    const runner = this.db.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      await runner.release();
      throw error;
    }
    return {
      all: <T>(sql: string, params: unknown[]) => runner.query(sql, params) as Promise<T[]>,
      close: async () => {
        await runner.query('ROLLBACK').catch(() => undefined);
        await runner.release();
      },
    };
  }

  private p(n: number): string {
    return this.db.param(n);
  }

  private cached(key: string, build: () => string): string {
    let sql = this.statements.get(key);
    if (!sql) this.statements.set(key, (sql = build()));
    return sql;
  }

  private columns(schema: KindSchema, alias = ''): string {
    return schema.columns.map((c) => `${alias}"${c.name}"`).join(', ');
  }

  /** Rows of `spec` (its condition applied). */
  async count(snapshot: Snapshot, spec: KindSpec): Promise<number> {
    const sql = this.cached(
      `count ${spec.kind} ${spec.where ?? ''}`,
      () => `SELECT COUNT(*) AS n FROM "${spec.table}"${spec.where ? ` WHERE ${spec.where}` : ''}`,
    );
    const [row] = await snapshot.all<{ n: number | string }>(sql, []);
    return Number(row?.n ?? 0);
  }

  /** The same count on the live store (each statement sees the commits before it). */
  countLive(spec: KindSpec): Promise<number> {
    const sql = this.cached(
      `count ${spec.kind} ${spec.where ?? ''}`,
      () => `SELECT COUNT(*) AS n FROM "${spec.table}"${spec.where ? ` WHERE ${spec.where}` : ''}`,
    );
    return this.db.read(async (em) => Number((await this.db.query<{ n: number | string }>(em, sql))[0]?.n ?? 0));
  }

  /**
   * One page of a walked kind: at most `limit` rows after `after` (values of the walk columns,
   * null for the first page), in the order of the walk columns (its primary key).
   */
  page(snapshot: Snapshot, schema: KindSchema, spec: KindSpec, after: unknown[] | null, limit: number): Promise<Row[]> {
    const keys = spec.walk!.map((c) => `"${c}"`);
    const key = keys.length === 1 ? keys[0] : `(${keys.join(', ')})`;
    const from = keys.length === 1 ? this.p(1) : `(${keys.map((_, i) => this.p(i + 1)).join(', ')})`;
    const conditions = [spec.where, after ? `${key} > ${from}` : null].filter(Boolean);
    const sql = this.cached(
      `page ${spec.kind} ${spec.where ?? ''} ${after ? 'after' : 'first'}`,
      () =>
        `SELECT ${this.columns(schema)} FROM "${spec.table}"${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}` +
        ` ORDER BY ${keys.join(', ')} LIMIT ${this.p((after?.length ?? 0) + 1)}`,
    );
    return snapshot.all(sql, [...(after ?? []), limit]);
  }

  /** Every row of a small kind (applications), in no particular order. */
  all(snapshot: Snapshot, schema: KindSchema, spec: KindSpec): Promise<Row[]> {
    const sql = this.cached(`all ${spec.kind}`, () => `SELECT ${this.columns(schema)} FROM "${spec.table}"`);
    return snapshot.all(sql, []);
  }

  /**
   * The members of the groups whose roots' ids lie from `first` to `last` (one page of roots,
   * whose ids are exactly those in the range): one index range scan, ordered by root, then by
   * the member's order.
   */
  members(snapshot: Snapshot, schema: KindSchema, first: string, last: string): Promise<Row[]> {
    const { column, order } = schema.spec.member!;
    const sql = this.cached(
      `members ${schema.spec.kind}`,
      () =>
        `SELECT ${this.columns(schema)} FROM "${schema.spec.table}" WHERE "${column}" >= ${this.p(1)} AND "${column}" <= ${this.p(2)}` +
        ` ORDER BY ${[column, ...order].map((c) => `"${c}"`).join(', ')}`,
    );
    return snapshot.all(sql, [first, last]);
  }

  /** Rows of a kind by id (tags, websites), in no particular order. */
  byIds(executor: Snapshot | EntityManager, schema: KindSchema, ids: string[]): Promise<Row[]> {
    if (ids.length === 0) return Promise.resolve([]);
    const sql = this.cached(
      `by ids ${schema.spec.kind}`,
      () =>
        `SELECT ${this.columns(schema, 'r.')} FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} "${schema.spec.table}" r ON r."id" = value ->> 0`,
    );
    const params = [JSON.stringify(ids.map((id) => [id]))];
    return executor instanceof EntityManager ? this.db.query(executor, sql, params) : executor.all(sql, params);
  }

  /**
   * Inserts records of one kind in one statement (their values as one JSON parameter, so the
   * statement text is the same whatever their number), keeping every existing record (same id,
   * or same natural key) and leaving out the rows that refer to a record that does not exist.
   * Answers the primary keys of the rows inserted.
   */
  async insert(em: EntityManager, schema: KindSchema, records: Row[]): Promise<string[][]> {
    if (records.length === 0) return [];
    const sql = this.cached(`insert ${schema.spec.kind}`, () => this.insertSql(schema));
    const values = JSON.stringify(records.map((r) => schema.columns.map((c) => r[c.name] ?? null)));
    const rows = await this.db.query<Row>(em, sql, [values]);
    return rows.map((row) => schema.primary.map((k) => String(row[k])));
  }

  private insertSql(schema: KindSchema): string {
    const pg = this.db.dialect === 'postgres';
    const index = new Map(schema.columns.map((c, i) => [c.name, i]));
    const value = (name: string) => {
      const i = index.get(name)!;
      const column = schema.columns[i];
      if (pg && column.type === 'integer') return `(value ->> ${i})::integer`;
      if (pg && column.type === 'boolean') return `(value ->> ${i})::boolean`;
      return `value ->> ${i}`;
    };
    // WHERE true: SQLite would otherwise read ON CONFLICT as a join's ON.
    const exists = schema.references.map(
      (ref) =>
        ` AND (${value(ref.column)} IS NULL OR EXISTS (SELECT 1 FROM "${ref.table}" x WHERE x."${ref.target}" = ${value(ref.column)}))`,
    );
    return (
      `INSERT INTO "${schema.spec.table}" (${this.columns(schema)})` +
      ` SELECT ${schema.columns.map((c) => value(c.name)).join(', ')} FROM ${this.db.sql.jsonElements(1)} WHERE true${exists.join('')}` +
      ` ON CONFLICT DO NOTHING RETURNING ${schema.primary.map((k) => `"${k}"`).join(', ')}`
    );
  }

  /** Deletes records of a kind by id (an asset an import must not leave without its formats), inside the import's transaction. */
  async remove(em: EntityManager, schema: KindSchema, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const sql = this.cached(
      `remove ${schema.spec.kind}`,
      () => `DELETE FROM "${schema.spec.table}" WHERE "id" IN (SELECT value ->> 0 FROM ${this.db.sql.jsonElements(1)})`,
    );
    await this.db.query(em, sql, [JSON.stringify(ids.map((id) => [id]))]);
  }

  /**
   * Of records not inserted, those whose natural key (tag text, website URL, application
   * identity, model fingerprint) belongs to an existing record of another id (and whose own id
   * is not taken): imported id -> the existing record's id.
   */
  async naturalMatches(em: EntityManager, schema: KindSchema, records: Row[]): Promise<Map<string, string>> {
    const natural = schema.spec.natural!;
    const out = new Map<string, string>();
    if (records.length === 0) return out;
    const sql = this.cached(`natural ${schema.spec.kind}`, () => {
      const on = natural.map((c, i) => `r."${c}" = value ->> ${i + 1}`).join(' AND ');
      return (
        `SELECT value ->> 0 AS imported, r."id" AS existing FROM ${this.db.sql.jsonElements(1)} ${this.db.sql.drivingJoin} "${schema.spec.table}" r ON ${on}` +
        ` WHERE NOT EXISTS (SELECT 1 FROM "${schema.spec.table}" p WHERE p."id" = value ->> 0)`
      );
    });
    const values = JSON.stringify(records.map((r) => [r.id, ...natural.map((c) => r[c])]));
    for (const row of await this.db.query<{ imported: string; existing: string }>(em, sql, [values])) {
      if (row.existing !== row.imported) out.set(row.imported, row.existing);
    }
    return out;
  }
}
