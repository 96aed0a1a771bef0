import { EntityManager } from 'typeorm';
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

/** Document frequencies are counted up to this many (enough to rank terms; idf saturates). */
const DF_CAP = 10_000;

const lexeme = (term: string): string => `'${term}'`;

/** A to_tsquery expression (terms only ever contain letters, digits and underscores). */
export function tsExpression(query: WordQuery, mode: 'AND' | 'OR'): string {
  const alternative = (terms: string[]) =>
    terms.length === 1 ? lexeme(terms[0]) : `(${terms.map(lexeme).join(' <-> ')})`;
  return query.map((group) => `(${group.map(alternative).join(' | ')})`).join(mode === 'AND' ? ' & ' : ' | ');
}

/** `%`, `_` and `\` are LIKE wildcards; match them literally. */
const likeEscape = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * PostgreSQL: a weighted tsvector (A name, B tags + annotations, C websites, D content) with
 * GIN, a pg_trgm GIN index over the lowercase name + first part of the text for substring
 * search, `search_vocab` (C collation) for typo candidates, `search_tags` for tag search.
 */
export class PostgresSearchStore implements SearchStore {
  async write(em: EntityManager, doc: IndexedDocument, terms: IndexTerms, created: boolean): Promise<void> {
    await em.query(
      `INSERT INTO search_documents (${DOCUMENT_COLUMNS}, head, doc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
         setweight(to_tsvector('simple', $12), 'A') || setweight(to_tsvector('simple', $13), 'B') ||
         setweight(to_tsvector('simple', $14), 'C') || setweight(to_tsvector('simple', $15), 'D'))
       ON CONFLICT (asset_id) DO UPDATE SET pseudo = EXCLUDED.pseudo, name = EXCLUDED.name, annotations = EXCLUDED.annotations,
         content = EXCLUDED.content, tags = EXCLUDED.tags, websites = EXCLUDED.websites, specifics = EXCLUDED.specifics,
         created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, head = EXCLUDED.head, doc = EXCLUDED.doc`,
      [
        ...documentValues(doc),
        `${doc.name.toLowerCase()} ${terms.head}`,
        terms.name,
        `${terms.tags} ${terms.annotations}`,
        terms.websites,
        terms.content,
      ],
    );
    if (!created) await em.query(`DELETE FROM search_tags WHERE asset_id = $1`, [doc.assetId]);
    if (doc.tags.length) {
      await em.query(
        `INSERT INTO search_tags (asset_id, tag) SELECT $1, t FROM unnest($2::varchar[]) t ON CONFLICT DO NOTHING`,
        [doc.assetId, doc.tags],
      );
    }
    await this.addVocabulary(em, terms.vocabulary);
  }

  async addVocabulary(em: EntityManager, terms: string[]): Promise<void> {
    if (terms.length === 0) return;
    await em.query(
      `INSERT INTO search_vocab (term, rev, len) SELECT t, reverse(t), length(t) FROM unnest($1::varchar[]) t ORDER BY t ON CONFLICT DO NOTHING`,
      [terms],
    );
  }

  async remove(em: EntityManager, assetId: string): Promise<void> {
    await em.query(`DELETE FROM search_tags WHERE asset_id = $1`, [assetId]);
    await em.query(`DELETE FROM search_documents WHERE asset_id = $1`, [assetId]);
  }

  async words(em: EntityManager, query: WordQuery, mode: 'AND' | 'OR', scope: Scope, limit: number): Promise<string[]> {
    if (query.length === 0) return [];
    const sql = new Sql('postgres');
    const q = sql.p(tsExpression(query, mode));
    const rows: Array<{ id: string }> = await em.query(
      `SELECT d.asset_id AS id FROM search_documents d, to_tsquery('simple', ${q}) q
       WHERE d.doc @@ q AND ${scopeSql(sql, scope)} ORDER BY ts_rank(d.doc, q, 1) DESC, d.updated_at DESC LIMIT ${sql.p(limit)}`,
      sql.values,
    );
    return rows.map((row) => row.id);
  }

  async prefixes(em: EntityManager, terms: string[], scope: Scope, limit: number): Promise<string[]> {
    if (terms.length === 0) return [];
    const sql = new Sql('postgres');
    // The document's words went through the text parser, which splits `safe_load`: so is the term.
    const q = sql.p(terms.map((term) => `${lexeme(term)}:*`).join(' & '));
    const rows: Array<{ id: string }> = await em.query(
      `SELECT d.asset_id AS id FROM search_documents d, to_tsquery('simple', ${q}) q
       WHERE d.doc @@ q AND ${scopeSql(sql, scope)} ORDER BY ts_rank(d.doc, q, 1) DESC, d.updated_at DESC LIMIT ${sql.p(limit)}`,
      sql.values,
    );
    return rows.map((row) => row.id);
  }

  async substrings(em: EntityManager, needles: string[], scope: Scope, limit: number): Promise<string[]> {
    const usable = needles.filter((n) => [...n].length >= 3).map((n) => n.toLowerCase());
    if (usable.length === 0) return [];
    const sql = new Sql('postgres');
    const patterns = usable.map((n) => sql.p(`%${likeEscape(n)}%`));
    const likes = (column: string) => patterns.map((p) => `${column} LIKE ${p}`).join(' AND ');
    // as on SQLite: the name's matches first
    const rows: Array<{ id: string }> = await em.query(
      `SELECT d.asset_id AS id FROM search_documents d WHERE ${likes('d.head')} AND ${scopeSql(sql, scope)}
       ORDER BY (${likes('lower(d.name)')}) DESC, word_similarity(${sql.p(usable.join(' '))}, d.head) DESC, d.updated_at DESC LIMIT ${sql.p(limit)}`,
      sql.values,
    );
    return rows.map((row) => row.id);
  }

  async tags(
    em: EntityManager,
    tags: string[],
    scope: Scope,
    limit: number,
  ): Promise<Array<{ id: string; count: number }>> {
    const sql = new Sql('postgres');
    const rows: Array<{ id: string; n: string }> = await em.query(taggedSql(sql, tags, scope, limit), sql.values);
    return rows.map((row) => ({ id: row.id, count: Number(row.n) }));
  }

  async recent(em: EntityManager, scope: Scope, limit: number): Promise<string[]> {
    const sql = new Sql('postgres');
    const rows: Array<{ id: string }> = await em.query(recentSql(sql, scope, limit), sql.values);
    return rows.map((row) => row.id);
  }

  async documentFrequency(em: EntityManager, terms: string[]): Promise<Map<string, number>> {
    const result = new Map<string, number>();
    if (terms.length === 0) return result;
    const rows: Array<{ term: string; n: string }> = await em.query(
      `SELECT t AS term, (SELECT COUNT(*) FROM (SELECT 1 FROM search_documents d WHERE d.doc @@ to_tsquery('simple', quote_literal(t)) LIMIT ${DF_CAP}) m) AS n
       FROM unnest($1::varchar[]) t`,
      [terms],
    );
    for (const row of rows) result.set(row.term, Number(row.n));
    return result;
  }

  async documentCount(em: EntityManager): Promise<number> {
    const rows = await em.query(`SELECT COUNT(*) AS n FROM search_documents`);
    return Number(rows[0].n);
  }

  async analysisVersion(em: EntityManager): Promise<number> {
    const rows = await em.query(`SELECT version FROM search_analysis WHERE id = 1`);
    return Number(rows[0]?.version ?? 0);
  }

  async recordAnalysis(em: EntityManager, version: number): Promise<void> {
    await em.query(`UPDATE search_analysis SET version = $1 WHERE id = 1`, [version]);
  }

  async vocabularyNear(
    em: EntityManager,
    prefix: string,
    suffix: string,
    minLength: number,
    maxLength: number,
  ): Promise<string[]> {
    const rows: Array<{ term: string }> = await em.query(
      `(SELECT term FROM search_vocab WHERE len = ANY($5::int[]) AND term >= $1 AND term < $2 LIMIT 5000)
       UNION (SELECT term FROM search_vocab WHERE len = ANY($5::int[]) AND rev >= reverse($3) AND rev < reverse($3) || $4 LIMIT 5000)`,
      [prefix, `${prefix}\uffff`, suffix, '\uffff', lengthsBetween(minLength, maxLength)],
    );
    return rows.map((row) => row.term);
  }

  async documents(
    em: EntityManager,
    ids: string[],
  ): Promise<Map<string, { name: string; annotations: string; content: string; tags: string }>> {
    const rows: Array<{ asset_id: string; name: string; annotations: string; content: string; tags: string }> =
      await em.query(
        `SELECT d.asset_id, d.name, d.annotations, d.content, d.tags FROM search_documents d WHERE d.asset_id = ANY($1::varchar[])`,
        [ids],
      );
    return new Map(rows.map((row) => [row.asset_id, row]));
  }

  async indexed(em: EntityManager, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ asset_id: string }> = await em.query(
      `SELECT d.asset_id FROM search_documents d WHERE d.asset_id = ANY($1::varchar[])`,
      [ids],
    );
    return new Set(rows.map((row) => row.asset_id));
  }
}
