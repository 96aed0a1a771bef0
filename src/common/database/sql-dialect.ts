/**
 * What differs in SQL text between SQLite and PostgreSQL, for every repository: the one
 * placeholder builder and the few shared fragments. A repository whose statements differ more
 * keeps a strategy object per dialect (as the search store does), built on this.
 */
export interface SqlDialect {
  readonly name: 'sqlite' | 'postgres';
  /** The placeholder of the `n`th bound parameter (from 1): `?n` on SQLite, `$n` on PostgreSQL. */
  param(n: number): string;
  /** Placeholders of `count` parameters from the `from`th on, comma-separated: `?1, ?2` / `$1, $2`. */
  params(count: number, from?: number): string;
  /** A FROM item over the elements of the JSON array bound as parameter `n`, each named `value`. */
  jsonElements(n: number): string;
  /**
   * The join that keeps its left side as the outer loop: CROSS JOIN on SQLite (its planner would
   * otherwise walk a whole table for a handful of JSON elements), JOIN on PostgreSQL (which has
   * no CROSS JOIN ... ON and plans it well).
   */
  readonly drivingJoin: string;
  /** An aggregate of `expression` over a group's rows as the text of a JSON array, in `orderBy` order. */
  jsonArrayAgg(expression: string, orderBy: string): string;
}

function params(this: SqlDialect, count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => this.param(from + i)).join(', ');
}

export const SQLITE: SqlDialect = {
  name: 'sqlite',
  param: (n) => `?${n}`,
  params,
  jsonElements(n) {
    return `json_each(${this.param(n)})`;
  },
  drivingJoin: 'CROSS JOIN',
  jsonArrayAgg: (expression, orderBy) => `json_group_array(${expression} ORDER BY ${orderBy})`,
};

export const POSTGRES: SqlDialect = {
  name: 'postgres',
  param: (n) => `$${n}`,
  params,
  jsonElements(n) {
    return `json_array_elements(${this.param(n)}::json) AS e(value)`;
  },
  drivingJoin: 'JOIN',
  jsonArrayAgg: (expression, orderBy) => `coalesce(json_agg(${expression} ORDER BY ${orderBy})::text, '[]')`,
};

/**
 * Builds one statement's parameters as it goes: `p(value)` binds a value and answers its
 * placeholder in the dialect (for statements assembled from optional parts).
 */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(readonly dialect: SqlDialect) {}

  p(value: unknown): string {
    this.values.push(value);
    return this.dialect.param(this.values.length);
  }
}
