import { Parser as PostgresParser } from 'node-sql-parser/build/postgresql';
import { Parser as MysqlParser } from 'node-sql-parser/build/mysql';
import { SnippetKind, kind, listOf, shortList } from './kind';

/**
 * SQL: what a query selects or changes, from which tables, read by node-sql-parser (PostgreSQL's
 * grammar, then MySQL's). Only the first statements are parsed (a dump of thousands of inserts is
 * named by its first ones), in a bounded time.
 */
const postgres = new PostgresParser();
const mysql = new MysqlParser();

/** At most this much of the text is parsed, in at most this many statements. */
const MAX_SQL = 6_000;
const MAX_STATEMENTS = 4;
/** A statement longer than this is not parsed (a generated insert of a thousand rows); nor are more after this many milliseconds. */
const MAX_STATEMENT = 2_000;
const BUDGET_MS = 6;

interface Statement {
  type: string;
  keyword?: string;
  columns: string[];
  tables: string[];
  groupBy: string[];
  orderBy: string[];
}

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null;
}

/** The name a select's column goes by: its alias, else the column, else the function it calls. */
function columnName(column: unknown): string | undefined {
  if (!isNode(column)) return typeof column === 'string' ? column : undefined;
  if (typeof column.as === 'string' && column.as) return column.as;
  const expr = isNode(column.expr) ? column.expr : column;
  if (expr.type === 'column_ref') {
    const inner = expr.column;
    if (typeof inner === 'string') return inner === '*' ? '*' : inner;
    if (isNode(inner) && isNode(inner.expr) && typeof inner.expr.value === 'string') return inner.expr.value;
  }
  if (expr.type === 'aggr_func' && typeof expr.name === 'string') return expr.name.toLowerCase();
  if (expr.type === 'function' && isNode(expr.name)) {
    const parts = expr.name.name;
    if (Array.isArray(parts) && isNode(parts[0]) && typeof parts[0].value === 'string')
      return parts[0].value.toLowerCase();
  }
  return undefined;
}

/** The tables of a statement's AST, in order: its `from`, `table` and joined tables, also in subqueries. */
function tablesOf(node: unknown, into: string[] = [], depth = 0): string[] {
  if (depth > 12 || !isNode(node)) return into;
  if (Array.isArray(node)) {
    for (const item of node) tablesOf(item, into, depth + 1);
    return into;
  }
  for (const key of ['table', 'from', 'name']) {
    const value = node[key];
    for (const entry of Array.isArray(value) ? value : value ? [value] : []) {
      if (isNode(entry) && typeof entry.table === 'string' && !into.includes(entry.table)) into.push(entry.table);
    }
  }
  for (const [key, value] of Object.entries(node))
    if (key !== 'table' && isNode(value)) tablesOf(value, into, depth + 1);
  return into;
}

function parse(sql: string): Statement[] | undefined {
  for (const parser of [postgres, mysql]) {
    let ast: unknown;
    try {
      ast = parser.astify(sql);
    } catch {
      continue;
    }
    const nodes = (Array.isArray(ast) ? ast : [ast]).filter(isNode);
    if (!nodes.length) continue;
    return nodes.map((node) => {
      const list = (value: unknown) => (Array.isArray(value) ? value : []);
      const columns =
        node.type === 'select' ? list(node.columns) : node.type === 'update' ? list(node.set) : list(node.columns);
      return {
        type: String(node.type),
        keyword: typeof node.keyword === 'string' ? node.keyword : undefined,
        columns: columns
          .map((c) =>
            isNode(c) && node.type === 'update' ? columnName({ type: 'column_ref', column: c.column }) : columnName(c),
          )
          .filter((c): c is string => !!c),
        tables: tablesOf(node),
        groupBy: list(isNode(node.groupby) ? node.groupby.columns : node.groupby)
          .map(columnName)
          .filter((c): c is string => !!c),
        orderBy: list(node.orderby)
          .map((o) => (isNode(o) ? columnName(o.expr) : undefined))
          .filter((c): c is string => !!c),
      };
    });
  }
  return undefined;
}

/** The statements of a script's first MAX_SQL characters, without comments. */
function statementsOf(text: string): string[] {
  const body = text
    .slice(0, MAX_SQL)
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/--[^\n]*/g, '');
  return body
    .split(/;[ \t]*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const VERBS: Record<string, string> = {
  select: 'selects',
  insert: 'inserts into',
  replace: 'replaces into',
  update: 'updates',
  delete: 'deletes from',
  create: 'creates',
  alter: 'alters',
  drop: 'drops',
};

export function understandSql(text: string): SnippetKind | undefined {
  const statements: Statement[] = [];
  const start = performance.now();
  const all = statementsOf(text);
  for (const sql of all.slice(0, MAX_STATEMENTS)) {
    if (performance.now() - start > BUDGET_MS) break;
    // (session settings, `SET NAMES utf8`, `BEGIN`, `USE db`, say nothing of what a script does)
    if (sql.length <= MAX_STATEMENT && !/^(?:SET|USE|BEGIN|START|COMMIT|LOCK|UNLOCK|\\)\b/i.test(sql))
      statements.push(...(parse(sql) ?? []));
  }
  const first = statements[0];
  if (!first) return undefined;
  const tables = [...new Set(statements.flatMap((s) => s.tables))];
  const more = all.length > 1 ? ` and ${all.length - 1} more ${all.length === 2 ? 'statement' : 'statements'}` : '';
  const from = tables.length ? tables : first.tables;
  const tags = ['sql', first.type, ...from.slice(0, 3)];
  if (first.type === 'select') {
    const columns = first.columns.filter((c) => c !== '*');
    const what = columns.length ? shortList(columns) : 'all columns';
    const name = `select ${what}${from.length ? ` from ${shortList(from)}` : ''}`;
    const clauses = [
      first.groupBy.length ? `grouped by ${listOf(first.groupBy)}` : '',
      first.orderBy.length ? `ordered by ${listOf(first.orderBy)}` : '',
    ].filter(Boolean);
    const description = `SQL query selecting ${columns.length ? listOf(columns) : 'all columns'}${from.length ? ` from ${listOf(from)}` : ''}${clauses.length ? `, ${clauses.join(', ')}` : ''}${more}`;
    return kind(name, description, tags);
  }
  const object = first.keyword && ['create', 'alter', 'drop'].includes(first.type) ? `${first.keyword} ` : '';
  const verb = VERBS[first.type] ?? first.type;
  const target = from.length ? listOf(from) : '';
  const into = first.type === 'insert' || first.type === 'replace' ? 'into ' : first.type === 'delete' ? 'from ' : '';
  const set = first.type === 'update' && first.columns.length ? ` set ${shortList(first.columns, 2)}` : '';
  const name = `${first.type} ${object}${target ? `${into}${shortList(from)}` : ''}${set}`.trim();
  const columns = first.type === 'update' || first.type === 'insert' ? first.columns : [];
  const description = `SQL statement that ${verb} ${object}${target}${columns.length ? ` (${listOf(columns)})` : ''}${more}`;
  return kind(name, description, [...tags, ...(first.keyword ? [first.keyword] : [])]);
}
