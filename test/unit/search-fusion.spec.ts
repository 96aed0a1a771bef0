import { EntityManager } from 'typeorm';
import { AssetReader } from '../../src/modules/assets/asset.reader';
import { Database } from '../../src/common/database/database.service';
import { EmbeddingModel } from '../../src/modules/intelligence/text/embedding-model';
import { LexicalRanking } from '../../src/modules/search/lexical-ranking';
import { Retrieval } from '../../src/modules/search/retrieval.service';
import { SearchEngine, SearchHit, SearchRequest } from '../../src/modules/search/search-engine.service';
import { SearchIndex } from '../../src/modules/search/search-index.service';
import { SearchStore, WordQuery } from '../../src/modules/search/store/search-store';

/**
 * The ranking of SearchEngine over an in-memory SearchStore: reciprocal-rank fusion of the
 * exact, substring, typo-corrected and partial lists, the scores, the `exact` flag and the name
 * of the matched field. (Fusion and match naming are not exported functions: they are reached
 * through `search`, with the store answering what each list would hold.)
 */

interface Doc {
  name?: string;
  content?: string;
  annotations?: string[];
  tags?: string[];
  websites?: string[];
  deleted?: boolean;
}

const RRF_K = 60;
const WEIGHTS = { exact: 1, substring: 0.8, fuzzy: 0.6, partial: 0.4 };
const BEST = (WEIGHTS.exact + WEIGHTS.substring + WEIGHTS.fuzzy + WEIGHTS.partial) / (RRF_K + 1);
const rrf = (weight: number, rank: number) => weight / (RRF_K + rank + 1);

class FakeStore implements Partial<SearchStore> {
  calls: { method: string; args: unknown[] }[] = [];
  exact: string[] = [];
  fuzzy: string[] = [];
  partial: string[] = [];
  substringIds: string[] = [];
  tagCounts: Array<{ id: string; count: number }> = [];
  recentIds: string[] = [];
  df = new Map<string, number>();
  vocab: string[] = [];
  docs = new Map<string, { name: string; annotations: string; content: string; tags: string }>();
  total = 100;

  private record(method: string, args: unknown[]) {
    this.calls.push({ method, args });
  }
  called(method: string) {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  async words(_em: EntityManager, query: WordQuery, mode: 'AND' | 'OR', scope: unknown, limit: number) {
    this.record('words', [query, mode, scope, limit]);
    if (mode === 'OR') return this.partial;
    return query.some(
      (group) => group.length > 1 && group.some((alt) => alt.length === 1 && this.vocab.includes(alt[0])),
    )
      ? this.fuzzy
      : this.exact;
  }
  async substrings(_em: EntityManager, needles: string[]) {
    this.record('substrings', [needles]);
    return this.substringIds;
  }
  async tags(_em: EntityManager, tags: string[], scope: unknown, limit: number) {
    this.record('tags', [tags, scope, limit]);
    return this.tagCounts;
  }
  async recent() {
    return this.recentIds;
  }
  async documentFrequency(_em: EntityManager, terms: string[]) {
    this.record('documentFrequency', [terms]);
    return new Map(terms.filter((t) => this.df.has(t)).map((t) => [t, this.df.get(t)!]));
  }
  async documentCount() {
    return this.total;
  }
  async vocabularyNear(_em: EntityManager, prefix: string, suffix: string, min: number, max: number) {
    this.record('vocabularyNear', [prefix, suffix, min, max]);
    return this.vocab.filter((t) => (t.startsWith(prefix) || t.endsWith(suffix)) && t.length >= min && t.length <= max);
  }
  async documents(_em: EntityManager, ids: string[]) {
    return new Map(ids.filter((id) => this.docs.has(id)).map((id) => [id, this.docs.get(id)!]));
  }
}

function setUp(world: Record<string, Doc>) {
  const store = new FakeStore();
  const aggregate = (id: string) => {
    const d = world[id];
    return {
      asset: { id, name: d.name ?? null },
      formats: [{ raw: d.content ?? '' }],
      annotations: (d.annotations ?? []).map((text) => ({ text })),
      tags: (d.tags ?? []).map((text) => ({ text })),
      websites: (d.websites ?? []).map((url) => ({ url, name: '' })),
      summaries: [],
    };
  };
  // The assets module's reader: the aggregates of the live assets among the ids.
  const reader = {
    liveAggregates: async (_em: EntityManager, ids: string[]) =>
      ids.filter((id) => world[id] && !world[id].deleted).map(aggregate),
  };
  const em = {} as EntityManager;
  const index = { store } as unknown as SearchIndex;
  const assets = reader as unknown as AssetReader;
  const lexical = new LexicalRanking(index);
  // No database is read here (Retrieval reads one only for question answering's candidates); no embedding model is bound.
  const retrieval = new Retrieval({} as Database, lexical, index, assets, new EmbeddingModel());
  const engine = new SearchEngine(index, lexical, retrieval, assets);
  const search = async (request: Omit<SearchRequest, 'scope'>) =>
    (await engine.search(em, { scope: { pseudo: false }, ...request })).map((hit: SearchHit) => ({
      id: hit.aggregate.asset.id,
      exact: hit.exact,
      score: hit.score,
      match: hit.match,
    }));
  return { store, engine, lexical, em, search };
}

describe('search ranking (reciprocal-rank fusion)', () => {
  const world: Record<string, Doc> = {
    a: { name: 'retry helper', content: 'function backoff() {}' },
    b: { name: 'loop', content: 'retry the loop', annotations: ['retry on failure'] },
    c: { name: 'other', content: 'retrying later' },
    d: { name: 'snake', content: 'import python' },
    e: { name: 'notes', content: 'alpha and gamma' },
    gone: { name: 'retry', deleted: true },
  };

  it('ranks an asset found by several lists above one found by a single list at a better rank', async () => {
    const { store, search } = setUp(world);
    store.exact = ['a', 'b'];
    store.substringIds = ['b', 'c'];
    const hits = await search({ query: 'retry' });
    expect(hits.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    const round = (n: number) => Math.round(n * 1e6) / 1e6;
    expect(hits.map((h) => h.score)).toEqual([
      round((rrf(WEIGHTS.exact, 1) + rrf(WEIGHTS.substring, 0)) / BEST),
      round(rrf(WEIGHTS.exact, 0) / BEST),
      round(rrf(WEIGHTS.substring, 1) / BEST),
    ]);
    // Exact: every word matched whole (or as identifier parts); a substring hit is not.
    expect(hits.map((h) => h.exact)).toEqual([true, true, false]);
    // The field the words were found in; several fields are MULTIPLE.
    expect(hits.map((h) => h.match)).toEqual(['MULTIPLE', 'TITLE', 'CONTENT']);
    // An exact match means every word is known: no typo correction was looked for.
    expect(store.called('documentFrequency')).toEqual([]);
  });

  it('groups each word with its identifier parts, and does not look for substrings once whole words fill the page', async () => {
    const { store, search } = setUp(
      Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`id${i}`, { name: 'getUserName' }])),
    );
    store.exact = Array.from({ length: 25 }, (_, i) => `id${i}`).slice(0, 20);
    const hits = await search({ query: 'getUserName now' });
    expect(hits).toHaveLength(20);
    expect(store.called('words')[0].slice(0, 2)).toEqual([
      [[['getusername'], ['get', 'user', 'name']], [['now']]],
      'AND',
    ]);
    expect(store.called('substrings')).toEqual([]);
  });

  it('corrects an unknown word against the vocabulary the index has, and names such a hit FUZZY', async () => {
    const { store, search } = setUp(world);
    store.df = new Map([
      ['python', 3],
      ['pylon', 1],
    ]);
    store.vocab = ['python', 'pyhon', 'pylon', 'typhon', 'pythonic'];
    store.fuzzy = ['d'];
    const hits = await search({ query: 'Pyhton' });
    // 6 characters: one edit allowed, anchored on the first or last 2 characters, lengths 5 to 7.
    expect(store.called('vocabularyNear')).toEqual([['py', 'on', 5, 7]]);
    // "pyhon" is one edit away but in no document; "pylon" and "typhon" are two away.
    const fuzzyQuery = store.called('words')[1];
    expect(fuzzyQuery.slice(0, 2)).toEqual([[[['pyhton'], ['python']]], 'AND']);
    expect(hits).toEqual([
      { id: 'd', exact: false, score: Math.round((rrf(WEIGHTS.fuzzy, 0) / BEST) * 1e6) / 1e6, match: 'FUZZY' },
    ]);
  });

  it('falls back to any of the words (OR) when no asset has all of them', async () => {
    const { store, search } = setUp(world);
    store.df = new Map([
      ['alpha', 4],
      ['beta', 2],
    ]);
    store.partial = ['e'];
    const hits = await search({ query: 'alpha beta' });
    expect(store.called('words').map((args) => args[1])).toEqual(['AND', 'OR']);
    expect(hits).toEqual([
      { id: 'e', exact: false, score: Math.round((rrf(WEIGHTS.partial, 0) / BEST) * 1e6) / 1e6, match: 'CONTENT' },
    ]);
  });

  it('is exact with tags only when the asset has every tag asked for, and names TAGS', async () => {
    const { store, search } = setUp(world);
    store.exact = ['a', 'b'];
    store.tagCounts = [
      { id: 'a', count: 2 },
      { id: 'b', count: 1 },
    ];
    const hits = await search({ query: 'retry', tags: ['x', 'y', 'x'] });
    expect(store.called('tags')[0]).toEqual([['x', 'y'], { pseudo: false, anyTags: ['x', 'y'], space: ['a', 'b'] }, 2]);
    expect(hits.map((h) => [h.id, h.exact, h.match])).toEqual([
      ['a', true, 'MULTIPLE'],
      ['b', false, 'MULTIPLE'],
    ]);
  });

  it('without a query: tag hits score the share of tags they have; other hits name what the filters matched', async () => {
    const tagged = setUp(world);
    tagged.store.tagCounts = [
      { id: 'a', count: 2 },
      { id: 'b', count: 1 },
    ];
    expect(await tagged.search({ tags: ['x', 'y'] })).toEqual([
      { id: 'a', exact: true, score: 1, match: 'TAGS' },
      { id: 'b', exact: false, score: 0.5, match: 'TAGS' },
    ]);

    const filtered = setUp(world);
    filtered.store.recentIds = ['a', 'c', 'gone'];
    expect(await filtered.search({ phrases: ['Retry Helper'], filterMatches: ['WEBSITES'] })).toEqual([
      { id: 'a', exact: true, score: 1, match: 'MULTIPLE' },
      { id: 'c', exact: true, score: 1, match: 'WEBSITES' },
    ]);
    expect(await filtered.search({ phrases: ['Retry Helper'] })).toEqual([
      { id: 'a', exact: true, score: 1, match: 'TITLE' },
      { id: 'c', exact: true, score: 1, match: 'UNKNOWN' },
    ]);
  });

  it('leaves out deleted assets', async () => {
    const { store, search } = setUp(world);
    store.exact = ['gone', 'a'];
    expect((await search({ query: 'retry' })).map((h) => h.id)).toEqual(['a']);
  });

  it('full text keeps the index order, scored by rank', async () => {
    const { store, engine, em } = setUp(world);
    store.exact = ['b', 'a'];
    const hits = await engine.fullText(em, 'retry', { pseudo: false });
    expect(hits.map((h) => [h.aggregate.asset.id, h.score, h.exact, h.match])).toEqual([
      ['b', 1, true, 'MULTIPLE'],
      ['a', Math.round(((RRF_K + 1) / (RRF_K + 2)) * 1e6) / 1e6, true, 'TITLE'],
    ]);
    expect(await engine.fullText(em, '-- "" *', { pseudo: false })).toEqual([]);
  });
});

describe('similar assets (key terms, fused per input by weight)', () => {
  it('queries each input by its key terms, leaving out terms only the inputs have, and fuses by weight', async () => {
    const { store, lexical, em } = setUp({
      x: { name: 'x' },
      y: { name: 'y' },
      z: { name: 'z' },
      seed: { name: 'seed' },
    });
    store.docs.set('seed', { name: 'kubernetes', annotations: '', content: 'kubernetes rollout uniqueword', tags: '' });
    store.df = new Map([
      ['kubernetes', 5],
      ['rollout', 2],
      ['uniqueword', 1],
      ['postgres', 3],
    ]);
    let call = 0;
    store.words = async (_em, query, mode, scope, limit) => {
      store.calls.push({ method: 'words', args: [query, mode, scope, limit] });
      return call++ === 0 ? ['x', 'y'] : ['y', 'z'];
    };
    const ids = await lexical.similarIds(
      em,
      [
        { id: 'seed', weight: 2 },
        { text: 'postgres postgres', weight: 1 },
      ],
      10,
    );
    const [first, second] = store.called('words');
    // "uniqueword" is only in the seed itself: it would find nothing else.
    expect(first[0]).toEqual([[['kubernetes']], [['rollout']]]);
    expect(first.slice(1)).toEqual(['OR', { pseudo: false, exclude: ['seed'] }, 10]);
    expect(second[0]).toEqual([[['postgres']]]);
    // y is 2nd for the first input (weight 2) and 1st for the second (weight 1): 2/62 + 1/61 > x's 2/61 > z's 1/62.
    expect(ids).toEqual(['y', 'x', 'z']);
  });
});
