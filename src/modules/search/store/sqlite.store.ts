import { EntityManager } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { reverse } from '../../intelligence/text/terms';
import {
  DOCUMENT_COLUMNS,
  IndexTerms,
  IndexedDocument,
  Scope,
  SearchStore,
  WordQuery,
  documentValues,
} from './search-store';
import { Sql, lengthsBetween, recentSql, scopeSql, taggedSql } from './sql';

/**
 * Very common terms match most of the index; words and substrings are then ranked among the
 * most recent WINDOW matches only (FTS5 walks rowids newest first), which keeps every query
 * bounded (bm25: about 3 microseconds per ranked row here). With fewer matches the ranking is exact.
 */
const WINDOW = 600;
/** bm25 column weights of search_words: name, annotations, tags, websites, content. */
const WORD_WEIGHTS = '10.0, 4.0, 6.0, 2.0, 1.0';

/** Moves the full-text rows staged by this transaction's index writes into the full-text tables. */
const FLUSH_STAGED = 'INSERT INTO search_staged_flush VALUES (NULL)';

/** Vocabulary terms per statement of addVocabulary. */
const VOCABULARY_CHUNK = 5000;

/** Terms as the vocabulary rows the `search_input` trigger and addVocabulary insert: [term, reversed, length]. */
const vocabularyJson = (terms: string[]): string => JSON.stringify(terms.map((t) => [t, reverse(t), [...t].length]));

const phrase = (terms: string[]): string => `"${terms.join(' ')}"`;

/** An FTS5 MATCH expression (terms only ever contain letters, digits and underscores). */
export function ftsExpression(query: WordQuery, mode: 'AND' | 'OR'): string {
  return query
    .map((group) => (group.length === 1 ? phrase(group[0]) : `(${group.map(phrase).join(' OR ')})`))
    .join(` ${mode} `);
}

/**
 * SQLite: FTS5 word table (unicode61, `_` kept inside words) and trigram table, both
 * contentless with delete support, keyed by `search_documents.doc_id`, all written by one
 * INSERT into the view `search_input` (its trigger does the rest); `search_vocab`
 * (term, reversed term) for typo candidates; `search_tags` for tag search and filters.
 */
export class SqliteSearchStore implements SearchStore {
  /** Reads and writes go through Database.query: prepared once, reused. */
  constructor(private readonly db: Database) {}

  /**
   * One statement: the trigger of the `search_input` view replaces the asset's rows (migration
   * SearchWriteStatement), staging its full-text rows, which the batch moves into the full-text
   * tables once, before it commits (migration SearchStaging).
   */
  async write(em: EntityManager, doc: IndexedDocument, terms: IndexTerms): Promise<void> {
    this.db.beforeCommit(FLUSH_STAGED);
    await this.db.query(
      em,
      `INSERT INTO search_input (${DOCUMENT_COLUMNS}, words_name, words_annotations, words_tags, words_websites, words_content, trigram_name, trigram_head, tag_list, vocabulary)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        ...documentValues(doc), // node-sqlite3 binds booleans as 1 / 0
        terms.name,
        terms.annotations,
        terms.tags,
        terms.websites,
        terms.content,
        doc.name.toLowerCase(),
        terms.head,
        JSON.stringify(doc.tags),
        vocabularyJson(terms.vocabulary),
      ],
    );
  }

  async addVocabulary(em: EntityManager, terms: string[]): Promise<void> {
    // In (len, term) order, the table's key: the b-tree is written left to right.
    const sorted = terms
      .map((t) => ({ t, len: [...t].length }))
      .sort((a, b) => a.len - b.len || (a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
    for (let i = 0; i < sorted.length; i += VOCABULARY_CHUNK) {
      await this.db.query(
        em,
        `INSERT OR IGNORE INTO search_vocab (len, term, rev) SELECT value ->> 2, value ->> 0, value ->> 1 FROM json_each(?)`,
        [vocabularyJson(sorted.slice(i, i + VOCABULARY_CHUNK).map((x) => x.t))],
      );
    }
  }

  async remove(em: EntityManager, assetId: string): Promise<void> {
    const existing = await this.db.query<{ doc_id: number }>(
      em,
      `SELECT doc_id FROM search_documents WHERE asset_id = ?`,
      [assetId],
    );
    if (!existing.length) return;
    const docId = existing[0].doc_id;
    await this.db.query(em, `DELETE FROM search_words WHERE rowid = ?`, [docId]);
    await this.db.query(em, `DELETE FROM search_trigrams WHERE rowid = ?`, [docId]);
    await this.db.query(em, `DELETE FROM search_staged WHERE doc_id = ?`, [docId]);
    await this.db.query(em, `DELETE FROM search_tags WHERE asset_id = ?`, [assetId]);
    await this.db.query(em, `DELETE FROM search_documents WHERE doc_id = ?`, [docId]);
  }

  /**
   * The most recent WINDOW matches in scope, with `columns` selected. CROSS JOIN keeps the
   * full-text table as the outer loop: SQLite would otherwise start from a selective scope
   * (tags, a search space) and run one MATCH per document, hundreds of times slower.
   */
  private async newest<T>(
    em: EntityManager,
    table: string,
    columns: string,
    match: string,
    scope: Scope,
  ): Promise<T[]> {
    const sql = new Sql('sqlite');
    return this.db.query(
      em,
      `SELECT ${columns} FROM ${table} CROSS JOIN search_documents d ON d.doc_id = ${table}.rowid
       WHERE ${table} MATCH ${sql.p(match)} AND ${scopeSql(sql, scope)} ORDER BY ${table}.rowid DESC LIMIT ${WINDOW}`,
      sql.values,
    );
  }

  async words(em: EntityManager, query: WordQuery, mode: 'AND' | 'OR', scope: Scope, limit: number): Promise<string[]> {
    if (query.length === 0) return [];
    const rows = await this.newest<{ id: string; r: number }>(
      em,
      'search_words',
      `d.asset_id AS id, bm25(search_words, ${WORD_WEIGHTS}) AS r`,
      ftsExpression(query, mode),
      scope,
    );
    return rows
      .sort((a, b) => a.r - b.r)
      .slice(0, limit)
      .map((row) => row.id);
  }

  async prefixes(em: EntityManager, terms: string[], scope: Scope, limit: number): Promise<string[]> {
    if (terms.length === 0) return [];
    const rows = await this.newest<{ id: string; r: number }>(
      em,
      'search_words',
      `d.asset_id AS id, bm25(search_words, ${WORD_WEIGHTS}) AS r`,
      terms.map((term) => `${phrase([term])} *`).join(' AND '),
      scope,
    );
    return rows
      .sort((a, b) => a.r - b.r)
      .slice(0, limit)
      .map((row) => row.id);
  }

  /**
   * Assets containing every needle, among the most recent WINDOW such: those with every needle
   * in the name first, then the rest, each newest first. Not bm25: its first call counts every
   * row matching each phrase over the whole index (`fts5Bm25GetData`), and a long needle is a
   * phrase of many common trigrams; this query stops at the window.
   */
  async substrings(em: EntityManager, needles: string[], scope: Scope, limit: number): Promise<string[]> {
    const usable = needles.filter((n) => [...n].length >= 3);
    if (usable.length === 0) return [];
    const match = usable.map((n) => `"${n.replace(/"/g, '""')}"`).join(' AND ');
    const rows = await this.newest<{ id: string; name: string }>(
      em,
      'search_trigrams',
      'd.asset_id AS id, d.name',
      match,
      scope,
    );
    // the tokenizer also folds diacritics; a name that differs only by them just ranks lower
    const lower = usable.map((n) => n.toLowerCase());
    const inName: string[] = [];
    const elsewhere: string[] = [];
    for (const row of rows) {
      const name = row.name.toLowerCase();
      (lower.every((n) => name.includes(n)) ? inName : elsewhere).push(row.id);
    }
    return [...inName, ...elsewhere].slice(0, limit);
  }

  /**
   * Most tags matched first, then most recently updated. When the scope needs nothing but the
   * tag rows (which carry `pseudo` and `updated_at`), one tag is an index walk that stops at
   * `limit`, several are grouped over their tag rows alone; otherwise the documents are joined.
   */
  async tags(
    em: EntityManager,
    tags: string[],
    scope: Scope,
    limit: number,
  ): Promise<Array<{ id: string; count: number }>> {
    const sql = new Sql('sqlite');
    const onTagRows =
      !scope.space &&
      !scope.exclude?.length &&
      !scope.filters &&
      tags.every((tag) => !scope.anyTags || scope.anyTags.includes(tag));
    const pseudo = scope.pseudo ? '' : 'AND NOT t.pseudo';
    const text =
      onTagRows && tags.length === 1
        ? `SELECT t.asset_id AS id, 1 AS n FROM search_tags t WHERE t.tag = ${sql.p(tags[0])} ${pseudo}
           ORDER BY t.updated_at DESC, t.asset_id DESC LIMIT ${sql.p(limit)}`
        : onTagRows
          ? `SELECT t.asset_id AS id, COUNT(*) AS n FROM search_tags t WHERE t.tag IN ${sql.list(tags)} ${pseudo}
             GROUP BY t.asset_id ORDER BY n DESC, MAX(t.updated_at) DESC, t.asset_id DESC LIMIT ${sql.p(limit)}`
          : taggedSql(sql, tags, scope, limit);
    const rows: Array<{ id: string; n: number }> = await this.db.query(em, text, sql.values);
    return rows.map((row) => ({ id: row.id, count: Number(row.n) }));
  }

  async recent(em: EntityManager, scope: Scope, limit: number): Promise<string[]> {
    const sql = new Sql('sqlite');
    const rows: Array<{ id: string }> = await this.db.query(em, recentSql(sql, scope, limit), sql.values);
    return rows.map((row) => row.id);
  }

  async documentFrequency(em: EntityManager, terms: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    if (terms.length === 0) return result;
    // fts5vocab answers `term = ?` from the index directly; an IN list would scan it.
    const rows: Array<{ term: string; doc: number }> = await this.db.query(
      em,
      terms.map((_, i) => `SELECT term, doc FROM search_words_vocab WHERE term = ?${i + 1}`).join(' UNION ALL '),
      terms,
    );
    for (const row of rows) result.set(row.term, Number(row.doc));
    return result;
  }

  /** Kept by the triggers of migration SearchDocumentCount: a lookup, not a count of the rows. */
  async documentCount(em: EntityManager): Promise<number> {
    const rows = await this.db.query(em, `SELECT documents AS n FROM search_stats WHERE id = 1`);
    return Number(rows[0].n);
  }

  async analysisVersion(em: EntityManager): Promise<number> {
    const rows = await this.db.query(em, `SELECT version FROM search_analysis WHERE id = 1`);
    return Number(rows[0]?.version ?? 0);
  }

  async recordAnalysis(em: EntityManager, version: number): Promise<void> {
    await this.db.query(em, `UPDATE search_analysis SET version = ? WHERE id = 1`, [version]);
  }

  async vocabularyNear(
    em: EntityManager,
    prefix: string,
    suffix: string,
    minLength: number,
    maxLength: number,
  ): Promise<string[]> {
    // len IN (...): one seek per length on (len, term) / (len, rev); a range would walk the whole prefix.
    const lengths = lengthsBetween(minLength, maxLength);
    const sql = new Sql('sqlite');
    const range = (column: string, from: string) =>
      `len IN (${lengths.map((n) => sql.p(n)).join(', ')}) AND ${column} >= ${sql.p(from)} AND ${column} < ${sql.p(`${from}\uffff`)}`;
    const rows: Array<{ term: string }> = await this.db.query(
      em,
      `SELECT term FROM (SELECT term FROM search_vocab WHERE ${range('term', prefix)} LIMIT 5000)
       UNION SELECT term FROM (SELECT term FROM search_vocab WHERE ${range('rev', reverse(suffix))} LIMIT 5000)`,
      sql.values,
    );
    return rows.map((row) => row.term);
  }

  async documents(
    em: EntityManager,
    ids: string[],
  ): Promise<Map<string, { name: string; annotations: string; content: string; tags: string }>> {
    const sql = new Sql('sqlite');
    const rows: Array<{ asset_id: string; name: string; annotations: string; content: string; tags: string }> =
      await this.db.query(
        em,
        `SELECT d.asset_id, d.name, d.annotations, d.content, d.tags FROM search_documents d WHERE d.asset_id IN ${sql.list(ids)}`,
        sql.values,
      );
    return new Map(rows.map((row) => [row.asset_id, row]));
  }

  async indexed(em: EntityManager, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const sql = new Sql('sqlite');
    const rows: Array<{ asset_id: string }> = await this.db.query(
      em,
      `SELECT d.asset_id FROM search_documents d WHERE d.asset_id IN ${sql.list(ids)}`,
      sql.values,
    );
    return new Set(rows.map((row) => row.asset_id));
  }
}
