import { AssetApi, AssetsApi, Configuration, SearchedAssets } from '@pieces.app/pieces-os-client';
import { expectError, http, nodeRequest, RawResponse, rawResponse, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

async function getWithBody(baseUrl: string, path: string, body: unknown): Promise<RawResponse> {
  const res = await nodeRequest(`${baseUrl}${path}`, 'GET', typeof body === 'string' ? body : JSON.stringify(body));
  return rawResponse(res.status, res.headers, res.text);
}

/**
 * The SDK sends GET /assets/related and /assets/recommended with a JSON body, which Node's
 * fetch refuses; this fetchApi sends such requests through node:http (as a browser-less
 * client of the SDK would), everything else through fetch.
 */
const getBodyFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  if ((init?.method ?? 'GET') === 'GET' && typeof init?.body === 'string') {
    const res = await nodeRequest(String(input), 'GET', init.body);
    return new Response(res.text, {
      status: res.status,
      headers: { 'content-type': res.headers['content-type'] ?? 'application/json' },
    });
  }
  return fetch(input, init);
};

describe('search', () => {
  let server: TestServer;
  let assets: AssetsApi;
  let asset: AssetApi;
  const id: Record<string, string> = {};

  async function create(
    key: string,
    raw: string,
    metadata: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const seed = textSeed(raw, metadata) as unknown as { asset: Record<string, unknown> };
    Object.assign(seed.asset, extra);
    const res = await http(server.baseUrl, 'POST', '/assets/create', seed);
    expect(res.status).toBe(200);
    id[key] = res.json.id;
    return res.json.id;
  }

  async function search(
    query?: string,
    tags?: string,
    flags: { pseudo?: boolean; transferables?: boolean } = {},
  ): Promise<SearchedAssets> {
    return assets.searchAssets({ query, searchableTags: tags, ...flags });
  }

  const ids = (found: { iterable: Array<{ identifier?: string; id?: string }> }) =>
    found.iterable.map((s) => s.identifier ?? s.id);

  /** Row counts of the search tables and assets: a rejected request must leave them unchanged. */
  async function counts(): Promise<string> {
    const tables = ['assets', 'search_documents', 'search_tags', 'search_vocab'];
    return server.counts(tables);
  }

  beforeAll(async () => {
    server = await startTestServer();
    assets = new AssetsApi(new Configuration({ basePath: server.baseUrl, fetchApi: getBodyFetch }));
    asset = new AssetApi(server.sdk);
    await create('user', 'export function getUserName(user: User): string {\n  return user.profile.displayName;\n}\n', {
      name: 'user lookup',
      tags: [{ text: 'typescript' }, { text: 'users' }],
      annotations: [{ type: 'DESCRIPTION', text: 'Reads the display name of a person record.' }],
    });
    await create(
      'yaml',
      'def parse_config_file(path):\n    with open(path) as handle:\n        return yaml.safe_load(handle)\n',
      { name: 'load settings', tags: [{ text: 'python' }, { text: 'config' }] },
      {
        format: {
          fragment: {
            string: {
              raw: 'def parse_config_file(path):\n    with open(path) as handle:\n        return yaml.safe_load(handle)\n',
            },
          },
          classification: { generic: 'CODE', specific: 'py' },
        },
      },
    );
    await create(
      'kube',
      'Kubernetes deployment checklist: rolling update strategy, readiness probes and resource limits for every service.',
      {
        name: 'deploy notes',
        tags: [{ text: 'ops' }],
        websites: [{ url: 'https://kubernetes.io/docs/concepts/', name: 'Kubernetes docs' }],
      },
    );
    await create('secret', 'zebrafish pseudo snippet kept out of normal results', {}, { pseudo: true });
    await create('email', 'export function getUserEmail(user: User): string {\n  return user.profile.email;\n}\n', {
      name: 'user email',
    });
    await create(
      'probes',
      'Readiness probes and liveness probes for a Kubernetes deployment; tune the probe timeouts.',
      { name: 'probe tuning' },
    );
    await create('titled', 'a widget that does small things', { name: 'zephyr widget' });
    await create(
      'mentioned',
      'the zephyr is mentioned once among many other words in this rather long text about wind and weather and clouds',
      {
        name: 'weather log',
      },
    );
  });
  afterAll(() => server.close());

  describe('GET /assets/search', () => {
    it('finds a word, answers complete SearchedAssets and counts exact results', async () => {
      const raw = await http(server.baseUrl, 'GET', '/assets/search?query=displayName');
      expect(raw.status).toBe(200);
      expectWire('SearchedAssets', raw.json);
      expect(raw.json.iterable[0].identifier).toBe(id.user);
      expect(raw.json.iterable[0].asset.id).toBe(id.user);
      expect(raw.json.iterable[0].exact).toBe(true);
      expect(raw.json.exact).toBe(raw.json.iterable.filter((s: { exact: boolean }) => s.exact).length);
      expect(raw.json.suggested).toBe(raw.json.iterable.length - raw.json.exact);

      const viaSdk = await search('readiness');
      expect(ids(viaSdk).sort()).toEqual([id.kube, id.probes].sort());
      expect(viaSdk.exact).toBe(2);
      expect(viaSdk.iterable[0].asset?.formats.iterable[0].fragment?.string?.raw).toContain('eadiness');
    });

    it('finds identifiers by their camelCase and snake_case parts, and whole', async () => {
      for (const q of ['getUserName', 'get user name', 'GETUSERNAME', 'name']) {
        const found = await search(q);
        expect(ids(found)[0]).toBe(id.user);
        expect(found.iterable[0].exact).toBe(true);
      }
      for (const q of ['parse_config_file', 'config file', 'parse']) {
        const found = await search(q);
        expect(ids(found)[0]).toBe(id.yaml);
        expect(found.iterable[0].exact).toBe(true);
      }
      // the parts must be adjacent and in order for the phrase of a whole identifier
      expect(ids(await search('name_user_get'))).not.toContain(id.user);
      // a shorter identifier finds the longer ones that hold it, by its parts' phrase (no substring query is run for it)
      const longer = await search('getUser');
      expect(ids(longer)).toEqual(expect.arrayContaining([id.user, id.email]));
      expect(longer.iterable.filter((s) => [id.user, id.email].includes(s.identifier!)).every((s) => s.exact)).toBe(
        true,
      );
    });

    it('finds substrings inside words as suggestions', async () => {
      const found = await search('bernete');
      expect(ids(found)).toContain(id.kube);
      const hit = found.iterable.find((s) => s.identifier === id.kube)!;
      expect(hit.exact).toBe(false);
      expect(found.suggested).toBeGreaterThanOrEqual(1);
      expect(ids(await search('safe_lo'))).toEqual([id.yaml]);
      // an identifier typed half way is found by the words that start with it, as a suggestion
      const typing = await search('getUserNa');
      expect(ids(typing)).toEqual([id.user]);
      expect(typing.iterable[0].exact).toBe(false);
      // a substring of the name ranks above a newer asset with it in the text only
      expect(ids(await search('ephy'))).toEqual([id.titled, id.mentioned]);
    });

    it('corrects typos against the index vocabulary (FUZZY)', async () => {
      const found = await search('kubernets');
      expect(ids(found)).toContain(id.kube);
      expect(found.iterable.find((s) => s.identifier === id.kube)!.exact).toBe(false);
      expect(ids(await search('yamll'))).toEqual([id.yaml]);
      const transposed = await search('zebrfaish', undefined, { pseudo: true });
      expect(ids(transposed)).toEqual([id.secret]);
      expect(transposed.iterable[0].match).toBe('FUZZY');
      // a word far from everything finds nothing
      expect(ids(await search('qqqqxxzz'))).toEqual([]);
    });

    it('names the matched field', async () => {
      const title = await search('lookup');
      expect(title.iterable[0].match).toBe('TITLE');
      const annotation = await search('person record');
      expect(annotation.iterable[0].identifier).toBe(id.user);
      expect(annotation.iterable[0].match).toBe('ANNOTATION');
      const content = await search('handle');
      expect(content.iterable[0].match).toBe('CONTENT');
      const multiple = await search('user');
      expect(multiple.iterable.find((s) => s.identifier === id.user)!.match).toBe('MULTIPLE');
    });

    it('orders best first: a title match above a passing mention', async () => {
      const found = await search('zephyr');
      expect(ids(found)).toEqual([id.titled, id.mentioned]);
      const scores = found.iterable.map((s) => s.score);
      expect(scores[0]).toBeGreaterThan(scores[1]);
      for (const q of ['user', 'probes', 'kubernetes']) {
        const s = (await search(q)).iterable.map((x) => x.score);
        expect([...s].sort((a, b) => b - a)).toEqual(s);
        for (const v of s) expect(v > 0 && v <= 1).toBe(true);
      }
    });

    it('searches tags exactly (searchable_tags or searchableTags, case-insensitive)', async () => {
      const python = await search(undefined, 'python');
      expect(ids(python)).toEqual([id.yaml]);
      expect(python.iterable[0].match).toBe('TAGS');
      expect(python.iterable[0].exact).toBe(true);
      const either = await search(undefined, 'python, ops');
      expect(ids(either).sort()).toEqual([id.yaml, id.kube].sort());
      expect(either.exact).toBe(0);
      expect(either.suggested).toBe(2);
      const both = await search(undefined, 'python,config');
      expect(ids(both)).toEqual([id.yaml]);
      expect(both.exact).toBe(1);
      const camel = await http(server.baseUrl, 'GET', '/assets/search?searchableTags=PYTHON');
      expect(camel.status).toBe(200);
      expect(camel.json.iterable.map((s: { identifier: string }) => s.identifier)).toEqual([id.yaml]);
      expect(ids(await search(undefined, 'pyth'))).toEqual([]);
    });

    it('orders tag results by tags matched, then most recently updated; pseudo assets only with pseudo=true', async () => {
      const older = await create('tagOld', 'first snippet about the lantern tag', {
        name: 'lantern one',
        tags: [{ text: 'lantern' }],
      });
      const newer = await create('tagNew', 'second snippet about the lantern tag', {
        name: 'lantern two',
        tags: [{ text: 'lantern' }, { text: 'wick' }],
      });
      const hidden = await create(
        'tagPseudo',
        'pseudo snippet about the lantern tag',
        { tags: [{ text: 'lantern' }] },
        { pseudo: true },
      );
      expect(ids(await search(undefined, 'lantern'))).toEqual([newer, older]);
      expect(ids(await search(undefined, 'lantern', { pseudo: true }))).toEqual([hidden, newer, older]);
      // Both tags outrank one tag, whatever the recency.
      expect(ids(await search(undefined, 'wick,lantern'))).toEqual([newer, older]);
      // Updating the older asset makes it the most recent.
      await asset.assetUpdate({
        asset: { ...(await assets.assetsSpecificAssetSnapshot({ asset: older })), name: 'lantern one, renamed' },
      });
      expect(ids(await search(undefined, 'lantern'))).toEqual([older, newer]);
      expect(ids(await search(undefined, 'lantern,wick'))).toEqual([newer, older]);
      await assets.assetsDeleteAsset({ asset: older });
      expect(ids(await search(undefined, 'lantern'))).toEqual([newer]);
    });

    it('keeps a query written as a sentence within its tags and away from pseudo assets (its key-term candidates too)', async () => {
      const tagged = await create(
        'sentenceTagged',
        'func trimWick(wick string) string {\n\treturn strings.TrimSpace(wick)\n}\n',
        {
          tags: [{ text: 'candles' }],
        },
      );
      // (Go, and tags given so Trove generates none: the filter tests below count the store's Python)
      const plain = await create(
        'sentencePlain',
        'func trimLanternWick(lantern Lantern) string {\n\treturn strings.TrimSpace(lantern.Wick)\n}\n',
        {
          tags: [{ text: 'lamps' }],
        },
      );
      const hidden = await create(
        'sentencePseudo',
        'func trimTheLanternWick(lantern Lantern) string {\n\treturn strings.TrimSpace(lantern.Wick)\n}\n',
        { tags: [{ text: 'lamps' }] },
        { pseudo: true },
      );
      const sentence = 'trim the wick of a lantern';
      const everywhere = ids(await search(sentence));
      expect(everywhere).toEqual(expect.arrayContaining([tagged, plain]));
      expect(everywhere).not.toContain(hidden);
      expect(ids(await search(sentence, undefined, { pseudo: true }))).toContain(hidden);
      expect(ids(await search(sentence, 'candles'))).toEqual([tagged]);
      for (const s of (await search(sentence)).iterable.map((x) => x.score)) expect(s > 0 && s <= 1).toBe(true);
    });

    it('intersects a query with tags', async () => {
      expect(ids(await search('user', 'python'))).toEqual([]);
      const found = await search('yaml', 'python');
      expect(ids(found)).toEqual([id.yaml]);
      expect(found.iterable[0].exact).toBe(true);
      expect(ids(await search('user', 'users'))).toEqual([id.user]);
    });

    it('refuses a search with neither query nor tags (400) and writes nothing', async () => {
      const before = await counts();
      expectError(await http(server.baseUrl, 'GET', '/assets/search'), 400, /query|tags/);
      expectError(
        await http(server.baseUrl, 'GET', '/assets/search?query=%20%20&searchable_tags=,%20,'),
        400,
        /query|tags/,
      );
      expect(await statusOf(assets.searchAssets({}))).toBe(400);
      expect(await counts()).toBe(before);
    });

    it('refuses bad query parameters', async () => {
      expectError(await http(server.baseUrl, 'GET', '/assets/search?query=a&query=b'), 400, /query/);
      expectError(
        await http(server.baseUrl, 'GET', '/assets/search?query=user&transferables=maybe'),
        400,
        /transferables/,
      );
      expectError(await http(server.baseUrl, 'GET', `/assets/search?query=${'x'.repeat(1001)}`), 400, /1000/);
    });

    it('leaves pseudo assets out unless pseudo=true', async () => {
      expect(ids(await search('zebrafish'))).toEqual([]);
      const found = await search('zebrafish', undefined, { pseudo: true });
      expect(ids(found)).toEqual([id.secret]);
      expect(found.iterable[0].asset?.pseudo).toBe(true);
    });

    it('strips format content with transferables=false', async () => {
      const found = await search('displayName', undefined, { transferables: false });
      expect(found.iterable[0].asset?.formats.iterable[0].fragment).toBeUndefined();
      const raw = await http(server.baseUrl, 'GET', '/assets/search?query=displayName&transferables=false');
      expect(JSON.stringify(raw.json)).not.toContain('profile.displayName');
      expectWire('SearchedAssets', raw.json);
    });
  });

  describe('the index follows the assets', () => {
    it('never finds a deleted asset', async () => {
      const quokka = await create('quokka', 'ephemeral quokka sighting');
      expect(ids(await search('quokka'))).toEqual([quokka]);
      await assets.assetsDeleteAsset({ asset: quokka });
      expect(ids(await search('quokka'))).toEqual([]);
      expect(ids(await search('quokk'))).toEqual([]);
      expect(await server.sql(`SELECT * FROM search_documents WHERE asset_id = '${quokka}'`)).toEqual([]);
    });

    it('finds the new text after an update and not the old one', async () => {
      const walrus = await create('walrus', 'alpha walrus migration');
      const current = await asset.assetSnapshot({ asset: walrus });
      current.formats.iterable[0].fragment = { string: { raw: 'beta narwhal migration' } };
      current.name = 'tusked whale';
      await asset.assetUpdate({ asset: current });
      expect(ids(await search('walrus'))).toEqual([]);
      expect(ids(await search('narwhal'))).toEqual([walrus]);
      expect((await search('tusked')).iterable[0].match).toBe('TITLE');
      // pseudo flag changes are indexed too
      const updated = await asset.assetSnapshot({ asset: walrus });
      updated.pseudo = true;
      await asset.assetUpdate({ asset: updated });
      expect(ids(await search('narwhal'))).toEqual([]);
      expect(ids(await search('narwhal', undefined, { pseudo: true }))).toEqual([walrus]);
    });

    it('indexes every write of a write batch: concurrent creates, then concurrent renames of one asset', async () => {
      // Requests arriving together share one transaction (SQLite: full-text rows are moved into
      // the index once, before its COMMIT); each must be found by its word and by a substring.
      const created = await Promise.all(
        Array.from({ length: 30 }, (_, i) => create(`gannet${i}`, `concurrent gannet${i}x sighting`)),
      );
      for (const [i, assetId] of created.entries()) {
        expect(ids(await search(`gannet${i}x`))).toEqual([assetId]);
        expect(ids(await search(`annet${i}x`))).toContain(assetId);
      }
      const ibis = await create('ibis', 'a wading bird note');
      const snapshot = await asset.assetSnapshot({ asset: ibis });
      await Promise.all(
        Array.from({ length: 8 }, (_, k) => asset.assetUpdate({ asset: { ...snapshot, name: `ibis${k}q` } })),
      );
      const final = (await asset.assetSnapshot({ asset: ibis })).name!;
      for (let k = 0; k < 8; k++) {
        // An old name is no longer a word of the index (it is one typo from the final name, so
        // fuzzy search may still suggest the asset, never as an exact match).
        const exact = (await search(`ibis${k}q`)).iterable.filter((r) => r.exact).map((r) => r.identifier);
        expect(exact).toEqual(`ibis${k}q` === final ? [ibis] : []);
      }
      expect(ids(await search('wading'))).toEqual([ibis]);
      // and deleted together, none is found any more (nor left to crowd the other tests' listings)
      await Promise.all([...created, ibis].map((assetId) => assets.assetsDeleteAsset({ asset: assetId })));
      expect(ids(await search('gannet3x'))).toEqual([]);
      expect(ids(await search('concurrent sighting'))).toEqual([]);
      expect(ids(await search(final))).toEqual([]);
      if (server.config.dialect === 'sqlite') expect(await server.sql('SELECT doc_id FROM search_staged')).toEqual([]);
    });

    it('writes no index rows for a create that fails', async () => {
      const before = await counts();
      const res = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        textSeed('unique platypus text', { websites: [{ url: 'not a url', name: 'x' }] }),
      );
      expectError(res, 400, /url/);
      expect(await counts()).toBe(before);
      expect(ids(await search('platypus'))).toEqual([]);
    });
  });

  describe('POST /assets/search', () => {
    const post = (input: Record<string, unknown>, flags: { pseudo?: boolean; transferables?: boolean } = {}) =>
      assets.assetsSearchWithFilters({ assetsSearchWithFiltersInput: input, ...flags }).then((out) => out.results);
    const space = (...keys: string[]) => ({ identifers: { iterable: keys.map((k) => ({ id: id[k] })) } });

    it('runs a fuzzy query and answers AssetsSearchWithFiltersOutput', async () => {
      const raw = await http(server.baseUrl, 'POST', '/assets/search', { query: 'kubernets' });
      expect(raw.status).toBe(200);
      expectWire('AssetsSearchWithFiltersOutput', raw.json);
      expect(raw.json.results.iterable.map((s: { identifier: string }) => s.identifier)).toContain(id.kube);
    });

    it('limits the search to the space', async () => {
      expect(ids(await post({ query: 'user', space: space('email') }))).toEqual([id.email]);
      expect(ids(await post({ query: 'user', space: space('yaml', 'kube') }))).toEqual([]);
      expect(ids(await post({ space: space('yaml', 'kube') })).sort()).toEqual([id.yaml, id.kube].sort());
    });

    it('applies each filter kind', async () => {
      const f = (filter: Record<string, unknown>, query?: string) =>
        post({ ...(query ? { query } : {}), filters: { iterable: [filter] } });
      expect(ids(await f({ tags: ['python'] }))).toEqual([id.yaml]);
      expect(ids(await f({ tags: ['python', 'ops'] }))).toEqual([]);
      expect(ids(await f({ websites: ['kubernetes.io'] }))).toEqual([id.kube]);
      expect((await f({ websites: ['kubernetes.io'] })).iterable[0].match).toBe('WEBSITES');
      expect(ids(await f({ classification: 'py' }))).toEqual([id.yaml]);
      expect(ids(await f({ persons: ['someone'] }))).toEqual([]);
      expect(ids(await f({ phrase: { value: 'Display Name', annotation: true } }))).toEqual([id.user]);
      expect(ids(await f({ phrase: { value: 'display name', title: true } }))).toEqual([]);
      expect(ids(await f({ phrase: { value: 'safe_load' } }))).toEqual([id.yaml]);
      const future = new Date(Date.now() + 3_600_000);
      const past = new Date(Date.now() - 3_600_000);
      expect(ids(await f({ created: { from: { value: future } } }))).toEqual([]);
      expect(ids(await f({ created: { to: { value: past } } }))).toEqual([]);
      expect(ids(await f({ updated: { from: { value: past }, to: { value: future } } })).length).toBeGreaterThanOrEqual(
        6,
      );
      // a filter narrows a query
      expect(ids(await f({ tags: ['ops'] }, 'probes'))).toEqual([id.kube]);
    });

    it('combines filters with AND, or OR when asked, including nested operations', async () => {
      const and = await post({ filters: { iterable: [{ tags: ['python'] }, { phrase: { value: 'yaml' } }] } });
      expect(ids(and)).toEqual([id.yaml]);
      expect(
        ids(await post({ filters: { iterable: [{ tags: ['python'] }, { phrase: { value: 'kubernetes' } }] } })),
      ).toEqual([]);
      const or = await post({
        filters: { type: 'OR', iterable: [{ tags: ['python'] }, { websites: ['kubernetes.io'] }] },
      });
      expect(ids(or).sort()).toEqual([id.yaml, id.kube].sort());
      const nested = await post({
        filters: {
          iterable: [
            { classification: 'py', operations: { type: 'OR', iterable: [{ tags: ['nope'] }, { tags: ['config'] }] } },
          ],
        },
      });
      expect(ids(nested)).toEqual([id.yaml]);
    });

    it('honours casing for phrase filters', async () => {
      expect(ids(await post({ casing: true, filters: { iterable: [{ phrase: { value: 'KUBERNETES' } }] } }))).toEqual(
        [],
      );
      expect(
        ids(
          await post({ casing: true, filters: { iterable: [{ phrase: { value: 'Kubernetes deployment' } }] } }),
        ).sort(),
      ).toEqual([id.kube, id.probes].sort());
      expect(
        ids(
          await post({
            casing: true,
            filters: { iterable: [{ phrase: { value: 'Kubernetes deployment checklist' } }] },
          }),
        ),
      ).toEqual([id.kube]);
      expect(
        ids(
          await post({
            casing: false,
            filters: { iterable: [{ phrase: { value: 'KUBERNETES DEPLOYMENT CHECKLIST' } }] },
          }),
        ),
      ).toEqual([id.kube]);
    });

    it('treats an empty body as "everything", pseudo only when asked', async () => {
      const res = await http(server.baseUrl, 'POST', '/assets/search', '', { 'content-type': 'application/json' });
      expect(res.status).toBe(200);
      const all = res.json.results.iterable.map((s: { identifier: string }) => s.identifier);
      expect(all).toEqual(expect.arrayContaining([id.user, id.yaml, id.kube]));
      expect(all).not.toContain(id.secret);
      const withPseudo = await http(server.baseUrl, 'POST', '/assets/search?pseudo=true', {
        space: { identifers: { iterable: [{ id: id.secret }] } },
      });
      expect(withPseudo.json.results.iterable.map((s: { identifier: string }) => s.identifier)).toEqual([id.secret]);
    });

    it('rejects invalid bodies with 400 and writes nothing', async () => {
      const before = await counts();
      const bad: Array<[unknown, RegExp]> = [
        [{ query: 5 }, /query/],
        [{ unknown: 1 }, /unknown/],
        [{ filters: { iterable: 'x' } }, /iterable/],
        [{ filters: { iterable: [{ classification: 'nope' }] } }, /classification/],
        [{ filters: { iterable: [{ tags: 'python' }] } }, /tags/],
        [{ filters: { iterable: [{ created: { from: { value: 'yesterday' } } }] } }, /value/],
        [{ filters: { type: 'XOR', iterable: [] } }, /type/],
        [{ space: { identifers: { iterable: [{ id: 'not-a-uuid' }] } } }, /id/],
        [{ space: { identifiers: { iterable: [] } } }, /identif/],
        ['{"query":', /JSON|json|Unexpected|Expected/],
      ];
      for (const [body, message] of bad)
        expectError(await http(server.baseUrl, 'POST', '/assets/search', body), 400, message);
      expect(await counts()).toBe(before);
    });
  });

  describe('related and recommended', () => {
    it('answers assets related to the given ones (GET with a body through the SDK), never the inputs', async () => {
      const input = await asset.assetSnapshot({ asset: id.user });
      const related = await assets.assetsGetRelatedAssets({ assets: { iterable: [input] } });
      expect(related.iterable.map((a) => a.id)[0]).toBe(id.email);
      expect(related.iterable.map((a) => a.id)).not.toContain(id.user);
      expect(related.iterable.map((a) => a.id)).not.toContain(id.secret);
    });

    it('answers the same through POST and through a raw GET with a body; minimal assets suffice', async () => {
      const post = await http(server.baseUrl, 'POST', '/assets/related', { iterable: [{ id: id.kube }] });
      expect(post.status).toBe(200);
      expectWire('Assets', post.json);
      expect(post.json.iterable[0].id).toBe(id.probes);
      const get = await getWithBody(server.baseUrl, '/assets/related', { iterable: [{ id: id.kube }] });
      expect(get.status).toBe(200);
      expect(get.json.iterable.map((a: { id: string }) => a.id)).toEqual(
        post.json.iterable.map((a: { id: string }) => a.id),
      );
      // an asset not in the store contributes its text
      const unsaved = await http(server.baseUrl, 'POST', '/assets/related', {
        iterable: [
          {
            id: '0a0b0c0d-0000-4000-8000-000000000001',
            formats: { iterable: [{ id: 'f', fragment: { string: { raw: 'yaml config loader' } } }] },
          },
        ],
      });
      expect(unsaved.json.iterable[0].id).toBe(id.yaml);
      const empty = await http(server.baseUrl, 'POST', '/assets/related', { iterable: [] });
      expect(empty.json).toEqual({ iterable: [] });
    });

    it('recommends assets like the ones interacted with, weighted by interaction', async () => {
      const kube = await asset.assetSnapshot({ asset: id.kube });
      const user = await asset.assetSnapshot({ asset: id.user });
      const recommended = await assets.assetsGetRecommendedAssets({
        seededAssetsRecommendation: {
          assets: { iterable: [kube, user] },
          interactions: {
            iterable: [
              { interactions: { viewed: 'PT5M', touched: true, scrolled: true } },
              { interactions: { viewed: 'PT1S' } },
            ],
          },
        },
      });
      const order = recommended.iterable.map((a) => a.id);
      expect(order[0]).toBe(id.probes);
      expect(order).toContain(id.email);
      expect(order).not.toContain(id.kube);
      expect(order).not.toContain(id.user);

      const flipped = await http(server.baseUrl, 'POST', '/assets/recommended', {
        assets: { iterable: [{ id: id.kube }, { id: id.user }] },
        interactions: {
          iterable: [
            { interactions: { viewed: 'PT1S' } },
            { asset: id.user, interactions: { viewed: 'PT10M', touched: true } },
          ],
        },
      });
      expect(flipped.status).toBe(200);
      expectWire('Assets', flipped.json);
      expect(flipped.json.iterable[0].id).toBe(id.email);

      const get = await getWithBody(server.baseUrl, '/assets/recommended', {
        assets: { iterable: [{ id: id.kube }] },
        interactions: { iterable: [] },
      });
      expect(get.status).toBe(200);
      expect(get.json.iterable[0].id).toBe(id.probes);
      const none = await http(server.baseUrl, 'POST', '/assets/recommended', '', {
        'content-type': 'application/json',
      });
      expect(none.json).toEqual({ iterable: [] });
      // a GET without any body: nothing to recommend from
      const bare = await http(server.baseUrl, 'GET', '/assets/recommended');
      expect(bare.status).toBe(200);
      expect(bare.json).toEqual({ iterable: [] });
    });

    it('rejects invalid bodies with 400 and writes nothing', async () => {
      const before = await counts();
      expectError(await http(server.baseUrl, 'POST', '/assets/related', { iterable: 'x' }), 400, /iterable/);
      expectError(await http(server.baseUrl, 'POST', '/assets/related', { foo: 1, iterable: [] }), 400, /foo/);
      expectError(await http(server.baseUrl, 'POST', '/assets/related', { iterable: [{ id: 5 }] }), 400, /id/);
      expectError(await getWithBody(server.baseUrl, '/assets/related', '{"iterable": ['), 400, /JSON/);
      expectError(await getWithBody(server.baseUrl, '/assets/related', { iterable: [{ id: 'nope' }] }), 400, /id/);
      expectError(
        await http(server.baseUrl, 'POST', '/assets/recommended', {
          assets: { iterable: [] },
          interactions: { iterable: [{ interactions: { viewed: 'PT1S' } }] },
        }),
        400,
        /paired/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/assets/recommended', {
          assets: { iterable: [{ id: id.kube }] },
          interactions: { iterable: [{ interactions: { viewed: 'a while' } }] },
        }),
        400,
        /viewed/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/assets/recommended', {
          assets: { iterable: [{ id: id.kube }] },
          interactions: { iterable: [{ asset: id.user }] },
        }),
        400,
        /asset/,
      );
      expectError(await getWithBody(server.baseUrl, '/assets/recommended', { assets: 7 }), 400, /assets/);
      // related needs its Assets body
      expectError(await http(server.baseUrl, 'GET', '/assets/related'), 400, /iterable/);
      const textBody = await nodeRequest(`${server.baseUrl}/assets/related`, 'GET', 'iterable', {
        'content-type': 'text/plain',
      });
      expect(textBody.status).toBe(415);
      expect(await counts()).toBe(before);
    });
  });
});

describe('search index repair at startup', () => {
  it('indexes live assets the index lost (counts differ) when the server starts again', async () => {
    const server = await startTestServer();
    try {
      const ids: string[] = [];
      for (const word of ['quasarLedger', 'nebulaCompass', 'pulsarBeacon']) {
        const res = await http(server.baseUrl, 'POST', '/assets/create', textSeed(`const ${word} = open("${word}");`));
        ids.push(res.json.id);
      }
      // As a store written before the index existed: two assets without their documents.
      const { Database } = await import('../../src/common/database/database.service');
      const { SearchIndex } = await import('../../src/modules/search/search-index.service');
      const index = server.app.get(SearchIndex);
      await server.app.get(Database).transaction(async (em) => {
        await index.remove(em, ids[0]);
        await index.remove(em, ids[1]);
      });
      const found = async (query: string) =>
        (await http(server.baseUrl, 'GET', `/assets/search?query=${query}`)).json.iterable.map(
          (s: { identifier: string }) => s.identifier,
        );
      expect(await found('quasarLedger')).toEqual([]);
      await server.restart();
      expect(await found('quasarLedger')).toEqual([ids[0]]);
      expect(await found('nebulaCompass')).toEqual([ids[1]]);
      expect(await found('pulsarBeacon')).toEqual([ids[2]]);
    } finally {
      await server.close();
    }
  });
});
