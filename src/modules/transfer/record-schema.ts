import { DataSource } from 'typeorm';
import { KINDS, KindSpec } from './record-kinds';

/** The three shapes a column's value takes in the export: a string, an integer, a boolean (or null). */
export type ColumnType = 'string' | 'integer' | 'boolean';

export interface ColumnInfo {
  /** The column's name in the database and in the export. */
  name: string;
  /** The entity property (camelCase) of the column. */
  property: string;
  type: ColumnType;
  nullable: boolean;
  /** Longest string accepted (varchar length), when bounded. */
  maxLength: number | null;
  /** Value taken when an imported record omits the column (its default), or undefined when it is required. */
  fallback: unknown;
  primary: boolean;
}

/** A column referring to another table's id (a foreign key of the schema). */
export interface Reference {
  column: string;
  table: string;
  target: string;
}

/** One kind's columns, as TypeORM's metadata describes its table. */
export interface KindSchema {
  spec: KindSpec;
  /** Every column, sorted by name: the key order of the exported records. */
  columns: ColumnInfo[];
  byName: Map<string, ColumnInfo>;
  primary: string[];
  references: Reference[];
}

/** PostgreSQL's `integer` range. */
const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

function columnType(type: unknown): ColumnType {
  if (type === 'boolean' || type === Boolean) return 'boolean';
  if (type === 'integer' || type === 'int' || type === Number) return 'integer';
  return 'string';
}

/**
 * The columns of every exported kind, from the entities' metadata: a column a migration adds
 * (and its entity declares) is exported and imported without a change here. Columns are
 * written in name order, so that the same record is the same line on SQLite and PostgreSQL.
 */
export class RecordSchema {
  private readonly kinds = new Map<string, KindSchema>();

  constructor(dataSource: DataSource) {
    for (const spec of KINDS) {
      const metadata = dataSource.entityMetadatas.find((m) => m.tableName === spec.table);
      if (!metadata) throw new Error(`transfer: no entity describes table ${spec.table}`);
      const columns: ColumnInfo[] = metadata.columns
        .map((c) => {
          const length = c.length ? Number(c.length) : NaN;
          const type = columnType(c.type);
          let fallback: unknown = undefined;
          if (c.default !== undefined && typeof c.default !== 'function') fallback = c.default;
          else if (c.isNullable) fallback = null;
          return {
            name: c.databaseName,
            property: c.propertyName,
            type,
            nullable: c.isNullable,
            maxLength: Number.isFinite(length) && length > 0 ? length : null,
            fallback,
            primary: c.isPrimary,
          };
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const references = metadata.foreignKeys
        .filter((fk) => fk.columnNames.length === 1)
        .map((fk) => ({
          column: fk.columnNames[0],
          table: fk.referencedEntityMetadata.tableName,
          target: fk.referencedColumnNames[0],
        }));
      this.kinds.set(spec.kind, {
        spec,
        columns,
        byName: new Map(columns.map((c) => [c.name, c])),
        primary: metadata.primaryColumns.map((c) => c.databaseName),
        references,
      });
    }
  }

  of(kind: string): KindSchema | undefined {
    return this.kinds.get(kind);
  }

  /** The schema of a kind known to exist. */
  get(kind: string): KindSchema {
    const schema = this.kinds.get(kind);
    if (!schema) throw new Error(`transfer: unknown kind ${kind}`);
    return schema;
  }

  /**
   * A row as read from either database, as the export writes it: every column in name order,
   * booleans as true/false (SQLite answers 0/1), integers as numbers (PostgreSQL's COUNT and
   * bigints as strings are not columns here).
   */
  static record(schema: KindSchema, row: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const column of schema.columns) {
      const value = row[column.name];
      if (value === null || value === undefined) out[column.name] = null;
      else if (column.type === 'boolean')
        out[column.name] = value === true || value === 1 || value === '1' || value === 't' || value === 'true';
      else if (column.type === 'integer') out[column.name] = Number(value);
      else out[column.name] = String(value);
    }
    return out;
  }

  /**
   * What is wrong with an imported record of `kind`, or null: an object of the kind's columns
   * (an omitted column takes its default, or null when nullable), each of its type, strings
   * without NUL and within their length, integers within PostgreSQL's `integer`.
   * Missing optional columns are filled in place.
   */
  static problem(schema: KindSchema, record: unknown): string | null {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'the record must be an object';
    const values = record as Record<string, unknown>;
    for (const key of Object.keys(values)) {
      if (!schema.byName.has(key)) return `unknown column "${key}" (exported by a newer Trove?)`;
    }
    for (const column of schema.columns) {
      let value = values[column.name];
      if (value === undefined) {
        if (column.fallback === undefined) return `column "${column.name}" is missing`;
        value = values[column.name] = column.fallback;
      }
      if (value === null) {
        if (!column.nullable) return `column "${column.name}" must not be null`;
        continue;
      }
      switch (column.type) {
        case 'boolean':
          if (typeof value !== 'boolean') return `column "${column.name}" must be true or false`;
          break;
        case 'integer':
          if (typeof value !== 'number' || !Number.isInteger(value) || value < INT_MIN || value > INT_MAX)
            return `column "${column.name}" must be an integer`;
          break;
        default:
          if (typeof value !== 'string') return `column "${column.name}" must be a string`;
          if (value.includes('\u0000')) return `column "${column.name}" must not contain NUL characters`;
          if (!(value as string & { isWellFormed(): boolean }).isWellFormed())
            return `column "${column.name}" must be well-formed Unicode (no lone surrogates)`;
          if (column.maxLength !== null && value.length > column.maxLength && [...value].length > column.maxLength) {
            return `column "${column.name}" is longer than ${column.maxLength} characters`;
          }
          if (column.primary && value === '') return `column "${column.name}" must not be empty`;
      }
    }
    return null;
  }

  /** A record as an entity-shaped object (camelCase properties): what the search index reads. */
  static entity<T>(schema: KindSchema, record: Record<string, unknown>): T {
    const out: Record<string, unknown> = {};
    for (const column of schema.columns) out[column.property] = record[column.name];
    return out as T;
  }
}
