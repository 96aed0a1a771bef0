import fc from 'fast-check';
import { EntityManager } from 'typeorm';
import { Database } from '../../src/common/database/database.service';
import { AssetFiltersDto } from '../../src/modules/search/dto/search-with-filters.dto';
import { PostgresSearchStore, tsExpression } from '../../src/modules/search/store/postgres.store';
import { WordQuery } from '../../src/modules/search/store/search-store';
import { Sql, filtersSql, lengthsBetween, recentSql, scopeSql, taggedSql } from '../../src/modules/search/store/sql';
import { SqliteSearchStore, ftsExpression } from '../../src/modules/search/store/sqlite.store';
import { QueryWord, queryWords } from '../../src/modules/intelligence/text/terms';

/** A query word as the search engine groups it: the whole word, or its parts as a phrase. */
const group = (word: QueryWord): string[][] => [[word.whole], ...(word.parts.length ? [word.parts] : [])];
const wordQuery = (query: string): WordQuery => queryWords(query).map(group);

const HOSTILE = [
  '"; DROP TABLE assets; --',
  'foo" OR "bar',
  "it's o'clock",
  'NEAR(alpha beta, 3)',
  'pre* -excluded +required',
  'col:value ^start',
  'AND OR NOT',
  "'quoted' \\ back $1 ?1 %_",
];

/** Statements a fake Database or EntityManager was asked to run. */
function recorder(rows: (sql: string, params: unknown[]) => unknown[] = () => []) {
  const calls: { sql: string; params: unknown[] }[] = [];
  const run = async (sql: string, params: unknown[] = []) => {
    calls.push({ sql, params });
    return rows(sql, params);
  };
  const db = {
    query: (_em: unknown, sql: string, params?: unknown[]) => run(sql, params),
    beforeCommit: () => undefined,
  } as unknown as Database;
  const em = { query: run } as unknown as EntityManager;
  return { calls, db, em };
}

describe('FTS5 MATCH expressions (SQLite)', () => {
  it('quotes every alternative as a phrase, groups alternatives, joins groups with the mode', () => {
    expect(ftsExpression([[['foo']]], 'AND')).toBe('"foo"');
    expect(ftsExpression(wordQuery('getUserName'), 'AND')).toBe('("getusername" OR "get user name")');
    expect(ftsExpression(wordQuery('retry getUserName'), 'AND')).toBe('"retry" AND ("getusername" OR "get user name")');
    expect(ftsExpression(wordQuery('retry getUserName'), 'OR')).toBe('"retry" OR ("getusername" OR "get user name")');
    expect(ftsExpression([[['pyhton'], ['python'], ['typhon']]], 'AND')).toBe('("pyhton" OR "python" OR "typhon")');
  });

  it.each(HOSTILE)('turns operators and quotes in a query into quoted words: %s', (query) => {
    const expression = ftsExpression(wordQuery(query), 'AND');
    // Outside the double-quoted phrases there is nothing but parentheses, AND and OR.
    expect(expression.replace(/"[^"]*"/g, 'T')).toMatch(/^(T|\(T( OR T)*\))( AND (T|\(T( OR T)*\)))*$/);
    for (const [, phrase] of expression.matchAll(/"([^"]*)"/g))
      expect(phrase).toMatch(/^[\p{Ll}\p{Lo}\p{N}_]+( [\p{Ll}\p{Lo}\p{N}_]+)*$/u);
  });

  it('is well-formed for any input text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (query) => {
        const q = wordQuery(query);
        if (q.length === 0) return;
        expect(ftsExpression(q, 'OR').replace(/"[^" ]+( [^" ]+)*"/g, 'T')).toMatch(
          /^(T|\(T( OR T)*\))( OR (T|\(T( OR T)*\)))*$/,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('is bound as a parameter of the MATCH, never spliced into the statement', async () => {
    const { calls, db } = recorder(() => [
      { id: 'weak', r: -1.5 },
      { id: 'strong', r: -9 },
      { id: 'middle', r: -4 },
    ]);
    const store = new SqliteSearchStore(db);
    const found = await store.words({} as EntityManager, wordQuery('foo" OR "bar'), 'AND', { pseudo: false }, 2);
    expect(found).toEqual(['strong', 'middle']); // bm25: lower is better, then the limit
    expect(calls).toHaveLength(1);
    expect(calls[0].sql).toMatch(/search_words MATCH \?1/);
    expect(calls[0].sql).not.toContain('foo');
    expect(calls[0].params[0]).toBe('"foo" AND "or" AND "bar"');
    expect(await store.words({} as EntityManager, [], 'AND', { pseudo: false }, 2)).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it('searches substrings as trigram phrases: quotes doubled, needles under 3 characters dropped, names first', async () => {
    const { calls, db } = recorder(() => [
      { id: 'in-content', name: 'something else' },
      { id: 'in-name', name: 'The Say "HI" Helper' },
    ]);
    const store = new SqliteSearchStore(db);
    const found = await store.substrings(
      {} as EntityManager,
      ['say "hi"', 'ab', '😀😀', 'NEAR*'],
      { pseudo: true },
      10,
    );
    expect(calls[0].sql).toMatch(/search_trigrams MATCH \?1/);
    expect(calls[0].params[0]).toBe('"say ""hi""" AND "NEAR*"');
    expect(found).toEqual(['in-content', 'in-name']); // "near*" is not in the name: neither counts as a name match
    calls.splice(0);
    expect(await store.substrings({} as EntityManager, ['say "hi"'], { pseudo: true }, 10)).toEqual([
      'in-name',
      'in-content',
    ]);
    expect(await store.substrings({} as EntityManager, ['ab', '😀😀'], { pseudo: true }, 10)).toEqual([]);
    expect(calls).toHaveLength(1);
  });
});

describe('tsquery expressions (PostgreSQL)', () => {
  it('quotes every term as a lexeme; phrases are <-> sequences; groups joined by & or |', () => {
    expect(tsExpression([[['foo']]], 'AND')).toBe("('foo')");
    expect(tsExpression(wordQuery('getUserName'), 'AND')).toBe("('getusername' | ('get' <-> 'user' <-> 'name'))");
    expect(tsExpression(wordQuery('retry getUserName'), 'AND')).toBe(
      "('retry') & ('getusername' | ('get' <-> 'user' <-> 'name'))",
    );
    expect(tsExpression(wordQuery('retry fetch'), 'OR')).toBe("('retry') | ('fetch')");
  });

  it.each(HOSTILE)('leaves no quote or operator of the query outside a lexeme: %s', (query) => {
    const expression = tsExpression(wordQuery(query), 'AND');
    expect(expression.replace(/'[\p{Ll}\p{Lo}\p{N}_]+'/gu, 'T')).toMatch(
      /^\((T|\(T( <-> T)+\))( \| (T|\(T( <-> T)+\)))*\)( & \((T|\(T( <-> T)+\))( \| (T|\(T( <-> T)+\)))*\))*$/,
    );
  });

  it('binds the expression and the LIKE patterns, escaping %, _ and \\ in substrings', async () => {
    const { calls, em } = recorder(() => [{ id: 'x' }]);
    const store = new PostgresSearchStore();
    await store.words(em, wordQuery("it's"), 'AND', { pseudo: false }, 5);
    expect(calls[0].sql).toMatch(/to_tsquery\('simple', \$1\)/);
    expect(calls[0].params).toEqual(["('it') & ('s')", 5]);
    calls.splice(0);
    await store.substrings(em, ['100%_Sure\\', 'ab'], { pseudo: true }, 5);
    expect(calls[0].params.slice(0, 2)).toEqual(['%100\\%\\_sure\\\\%', '100%_sure\\']);
    expect(calls[0].sql).toMatch(/d\.head LIKE \$1 AND/);
  });
});

describe('search SQL fragments', () => {
  it('numbers placeholders in the order values are bound, per dialect', () => {
    for (const [dialect, first, second] of [
      ['sqlite', '?1', '?2'],
      ['postgres', '$1', '$2'],
    ] as const) {
      const sql = new Sql(dialect);
      expect([sql.p('a'), sql.p(2)]).toEqual([first, second]);
      expect(sql.values).toEqual(['a', 2]);
    }
  });

  it('scopes to live, non-pseudo documents by default, and to a space, exclusions and tags as bound lists', () => {
    expect(scopeSql(new Sql('sqlite'), { pseudo: true })).toBe('1 = 1');
    expect(scopeSql(new Sql('sqlite'), { pseudo: false })).toBe('NOT d.pseudo');

    const lite = new Sql('sqlite');
    expect(scopeSql(lite, { pseudo: false, space: ['a', "b'"], exclude: ['c'], anyTags: ['t'] })).toBe(
      'NOT d.pseudo AND d.asset_id IN (SELECT value FROM json_each(?1)) AND d.asset_id NOT IN (SELECT value FROM json_each(?2))' +
        ' AND EXISTS (SELECT 1 FROM search_tags st WHERE st.asset_id = d.asset_id AND st.tag IN (SELECT value FROM json_each(?3)))',
    );
    expect(lite.values).toEqual(['["a","b\'"]', '["c"]', '["t"]']);

    const pg = new Sql('postgres');
    expect(scopeSql(pg, { pseudo: true, space: ['a'], exclude: [] })).toBe(
      'd.asset_id IN (SELECT unnest($1::varchar[]))',
    );
    expect(pg.values).toEqual([['a']]);
  });

  it('turns filters into bound conditions: tags normalised, classifications whole, ORs and nested operations', () => {
    const filters = {
      type: 'OR',
      iterable: [
        { tags: ['  Big   Data '], classification: 'py' },
        { websites: [' Example.COM '], persons: ['someone'] },
        {
          operations: {
            iterable: [
              { created: { from: { value: '2024-01-02T03:04:05+02:00' }, to: { value: '2024-02-01T00:00:00Z' } } },
            ],
          },
        },
        {},
      ],
    } as unknown as AssetFiltersDto;
    const sql = new Sql('postgres');
    expect(filtersSql(sql, filters, false)).toBe(
      '((strpos(d.specifics, $1) > 0 AND EXISTS (SELECT 1 FROM search_tags st WHERE st.asset_id = d.asset_id AND st.tag = $2))' +
        ' OR (strpos(d.websites, $3) > 0 AND 1 = 0)' +
        ' OR (((d.created_at >= $4 AND d.created_at <= $5)))' +
        ' OR 1 = 1)',
    );
    expect(sql.values).toEqual([
      ' py ',
      'big data',
      'example.com',
      '2024-01-02T01:04:05.000Z',
      '2024-02-01T00:00:00.000Z',
    ]);
    expect(filtersSql(new Sql('sqlite'), { iterable: [] } as unknown as AssetFiltersDto, false)).toBe('1 = 1');
  });

  it('matches phrases in the chosen fields, case-insensitively unless asked (SQLite folds ASCII only, as its lower() does)', () => {
    const phrase = (p: object) => ({ iterable: [{ phrase: p }] }) as unknown as AssetFiltersDto;
    const lite = new Sql('sqlite');
    expect(filtersSql(lite, phrase({ value: 'ÀBC Def', title: true }), false)).toBe(
      '(((instr(lower(d.name), ?1) > 0)))',
    );
    expect(lite.values).toEqual(['Àbc def']);
    const pg = new Sql('postgres');
    expect(filtersSql(pg, phrase({ value: 'ÀBC Def' }), false)).toBe(
      '(((strpos(lower(d.name), $1) > 0 OR strpos(lower(d.annotations), $2) > 0 OR strpos(lower(d.content), $3) > 0)))',
    );
    expect(pg.values).toEqual(['àbc def', 'àbc def', 'àbc def']);
    const cased = new Sql('sqlite');
    expect(filtersSql(cased, phrase({ value: 'ÀBC', annotation: true, content: true }), true)).toBe(
      '(((instr(d.annotations, ?1) > 0 OR instr(d.content, ?2) > 0)))',
    );
    expect(cased.values).toEqual(['ÀBC', 'ÀBC']);
  });

  it('orders tagged and recent assets deterministically, with the limit bound', () => {
    const sql = new Sql('sqlite');
    const text = taggedSql(sql, ['a', 'b'], { pseudo: false }, 7);
    expect(text).toMatch(/WHERE t\.tag IN \(SELECT value FROM json_each\(\?1\)\) AND NOT d\.pseudo/);
    expect(text).toMatch(/ORDER BY n DESC, d\.updated_at DESC, d\.asset_id DESC LIMIT \?2$/);
    expect(sql.values).toEqual(['["a","b"]', 7]);
    const recent = new Sql('postgres');
    expect(recentSql(recent, { pseudo: true }, 3)).toBe(
      'SELECT d.asset_id AS id FROM search_documents d WHERE 1 = 1 ORDER BY d.updated_at DESC, d.asset_id DESC LIMIT $1',
    );
  });

  it('lists the term lengths typo correction looks up', () => {
    expect(lengthsBetween(3, 5)).toEqual([3, 4, 5]);
    expect(lengthsBetween(4, 4)).toEqual([4]);
    expect(lengthsBetween(5, 3)).toEqual([]);
  });
});
