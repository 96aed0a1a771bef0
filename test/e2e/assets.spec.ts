import { AssetApi, AssetsApi } from '@pieces.app/pieces-os-client';
import { expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';

describe('core asset store', () => {
  let server: TestServer;
  let assets: AssetsApi;
  let asset: AssetApi;

  beforeAll(async () => {
    server = await startTestServer();
    assets = new AssetsApi(server.sdk);
    asset = new AssetApi(server.sdk);
  });
  afterAll(() => server.close());

  /** Row counts of every asset table: a rejected request must leave them all unchanged. */
  async function counts(): Promise<string> {
    const tables = [
      'assets',
      'formats',
      'annotations',
      'tags',
      'asset_tags',
      'websites',
      'asset_websites',
      'applications',
    ];
    return server.counts(tables);
  }

  describe('create', () => {
    it('creates an asset from a text seed with metadata, complete on the wire and parsed by the SDK', async () => {
      const raw = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        textSeed('def add(a, b):\n    return a + b\n', {
          name: 'add two numbers',
          tags: [{ text: 'python' }, { text: 'math' }],
          websites: [{ url: 'https://docs.python.org/3/', name: 'Python docs' }],
          annotations: [{ type: 'DESCRIPTION', text: 'Adds two numbers.' }],
        }),
      );
      expect(raw.status).toBe(200);
      expectWire('Asset', raw.json);
      const created = raw.json;
      expect(created.name).toBe('add two numbers');
      expect(created.mechanism).toBe('MANUAL');
      expect(created.formats.iterable).toHaveLength(1);
      const format = created.formats.iterable[0];
      expect(format.fragment.string.raw).toBe('def add(a, b):\n    return a + b\n');
      expect(format.bytes.value).toBe(32);
      expect(format.application.name).toBe('VS_CODE');
      expect(format.asset.id).toBe(created.id);
      expect(created.preview.base.id).toBe(format.id);
      expect(created.original.reference.asset).toBe(created.id);
      expect(created.tags.iterable.map((t: { text: string }) => t.text).sort()).toEqual(['math', 'python']);
      expect(created.websites.iterable[0]).toEqual(
        expect.objectContaining({ url: 'https://docs.python.org/3/', name: 'Python docs' }),
      );
      expect(created.annotations.iterable[0]).toEqual(
        expect.objectContaining({ type: 'DESCRIPTION', text: 'Adds two numbers.' }),
      );

      const viaSdk = await assets.assetsSpecificAssetSnapshot({ asset: created.id });
      expect(viaSdk.created.value).toBeInstanceOf(Date);
      expect(viaSdk.formats.iterable[0].fragment?.string?.raw).toContain('return a + b');
    });

    it('lists tags, websites and annotations in the order given; a repeated tag or website is linked once, an existing one reused as it is', async () => {
      const first = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        textSeed('order one', {
          tags: [{ text: 'zeta' }, { text: 'alpha' }, { text: 'mid' }, { text: ' alpha ' }],
          websites: [
            { url: 'https://z.example/', name: 'Zed' },
            { url: 'https://a.example/', name: '' },
            { url: 'https://z.example/', name: 'again' },
          ],
          annotations: [
            { type: 'DESCRIPTION', text: 'third?' },
            { type: 'COMMENT', text: 'no, first' },
            { type: 'COMMENT', text: 'last' },
          ],
        }),
      );
      expect(first.status).toBe(200);
      expect(first.json.tags.iterable.map((t: { text: string }) => t.text)).toEqual(['zeta', 'alpha', 'mid']);
      expect(first.json.websites.iterable.map((w: { url: string; name: string }) => [w.url, w.name])).toEqual([
        ['https://z.example/', 'Zed'],
        ['https://a.example/', 'a.example'],
      ]);
      expect(first.json.annotations.iterable.map((a: { text: string }) => a.text)).toEqual([
        'third?',
        'no, first',
        'last',
      ]);

      const second = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        textSeed('order two', {
          tags: [{ text: 'mid' }, { text: 'zeta', category: 'HANDLE' }],
          websites: [{ url: 'https://z.example/', name: 'renamed?' }],
        }),
      );
      expect(second.status).toBe(200);
      const idOf = (asset: { tags: { iterable: Array<{ id: string; text: string }> } }, text: string) =>
        asset.tags.iterable.find((t) => t.text === text)!.id;
      expect(idOf(second.json, 'zeta')).toBe(idOf(first.json, 'zeta'));
      expect(idOf(second.json, 'mid')).toBe(idOf(first.json, 'mid'));
      expect(second.json.tags.iterable.map((t: { text: string }) => t.text)).toEqual(['mid', 'zeta']);
      expect(second.json.tags.iterable[1].category).toBe(first.json.tags.iterable[0].category);
      expect(second.json.websites.iterable[0]).toEqual(
        expect.objectContaining({ id: first.json.websites.iterable[0].id, name: 'Zed' }),
      );
    });

    it('creates through the SDK exactly as the CLI does (transferables=false, type given)', async () => {
      const seed = textSeed('echo hello');
      const created = await assets.assetsCreateNewAsset({ transferables: false, seed });
      expect(created.formats.iterable[0].fragment).toBeUndefined();
      expect(created.formats.iterable[0].classification.generic).toMatch(/CODE|TEXT/);
      const full = await asset.assetSnapshot({ asset: created.id });
      expect(full.formats.iterable[0].fragment?.string?.raw).toBe('echo hello');
    });

    it('defaults the seed type to SEEDED_ASSET and credits Trove when no application is given', async () => {
      const res = await http(server.baseUrl, 'POST', '/assets/create', {
        asset: { format: { fragment: { string: { raw: 'plain note' } } } },
      });
      expect(res.status).toBe(200);
      expectWire('Asset', res.json);
      expect(res.json.formats.iterable[0].application.name).toBe('OPEN_SOURCE');
      // No name given: Trove names it from its content (enrichment.spec.ts).
      expect(res.json.name).toBe('plain note');
    });

    it('keeps a classification given in the seed', async () => {
      const seed = textSeed('SELECT 1');
      (seed.asset!.format as any).classification = { generic: 'CODE', specific: 'sql' };
      const created = await assets.assetsCreateNewAsset({ seed });
      expect(created.formats.iterable[0].classification).toEqual(
        expect.objectContaining({ generic: 'CODE', specific: 'sql' }),
      );
    });

    it('accepts base64 text the way browser clients send it (TS property names)', async () => {
      const res = await http(server.baseUrl, 'POST', '/assets/create', {
        asset: { format: { fragment: { string: { base64Url: Buffer.from('x = 42').toString('base64url') } } } },
      });
      expect(res.status).toBe(200);
      expect(res.json.formats.iterable[0].fragment.string.raw).toBe('x = 42');
    });

    it('reuses one tag record per text and one website per URL', async () => {
      await assets.assetsCreateNewAsset({
        seed: textSeed('a', {
          tags: [{ text: 'shared-tag' }],
          websites: [{ url: 'https://shared.example/', name: 's' }],
        }),
      });
      await assets.assetsCreateNewAsset({
        seed: textSeed('b', {
          tags: [{ text: 'shared-tag' }],
          websites: [{ url: 'https://shared.example/', name: 's' }],
        }),
      });
      expect(await server.sql(`SELECT id FROM tags WHERE text = 'shared-tag'`)).toHaveLength(1);
      expect(await server.sql(`SELECT id FROM websites WHERE url = 'https://shared.example/'`)).toHaveLength(1);
    });
  });

  describe('read', () => {
    let id: string;
    beforeAll(async () => {
      id = (await assets.assetsCreateNewAsset({ seed: textSeed('console.log("read me")', { name: 'read me' }) })).id;
    });

    it('serves the same complete asset on GET /assets/{id}, GET /asset/{id} and POST /asset/{id}', async () => {
      const a = await http(server.baseUrl, 'GET', `/assets/${id}`);
      const b = await http(server.baseUrl, 'GET', `/asset/${id}?package_activities=false`);
      const c = await http(server.baseUrl, 'POST', `/asset/${id}`, { os: 'os-1', share: 'share-1' });
      for (const res of [a, b, c]) {
        expect(res.status).toBe(200);
        expectWire('Asset', res.json);
      }
      expect(b.json).toEqual(a.json);
      expect(c.json).toEqual(a.json);
      const viaSdk = await asset.assetSnapshotPost({ asset: id, seededAccessor: { os: 'os-1', share: 's' } });
      expect(viaSdk.id).toBe(id);
    });

    it('strips content only when transferables is exactly false', async () => {
      const without = await http(server.baseUrl, 'GET', `/asset/${id}?transferables=false`);
      expect(without.json.formats.iterable[0].fragment).toBeUndefined();
      expect(without.json.original.reference.fragment).toBeUndefined();
      expectWire('Asset', without.json);
      const withTrue = await http(server.baseUrl, 'GET', `/asset/${id}?transferables=true`);
      expect(withTrue.json.formats.iterable[0].fragment.string.raw).toBe('console.log("read me")');
      const bad = await http(server.baseUrl, 'GET', `/asset/${id}?transferables=yes`);
      expectError(bad, 400, /transferables/);
    });

    it('serves formats on both paths', async () => {
      const a = await assets.assetsSpecificAssetFormatsSnapshot({ asset: id });
      const b = await asset.assetFormats({ asset: id, transferables: false });
      expect(a.iterable[0].fragment?.string?.raw).toBe('console.log("read me")');
      expect(b.iterable[0].fragment).toBeUndefined();
      const raw = await http(server.baseUrl, 'GET', `/asset/${id}/formats`);
      expectWire('Formats', raw.json);
    });

    it('lists every asset most recent first, and identifiers in the same order with indices', async () => {
      const newest = await assets.assetsCreateNewAsset({ seed: textSeed('newest') });
      const list = await http(server.baseUrl, 'GET', '/assets');
      expectWire('Assets', list.json);
      expect(list.json.iterable[0].id).toBe(newest.id);
      const ids = await http(server.baseUrl, 'GET', '/assets/identifiers');
      expectWire('FlattenedAssets', ids.json);
      expect(ids.json.iterable.map((a: { id: string }) => a.id)).toEqual(
        list.json.iterable.map((a: { id: string }) => a.id),
      );
      expect(ids.json.indices[newest.id]).toBe(0);
      const viaSdk = await assets.assetsSnapshot({ transferables: false });
      expect(viaSdk.iterable.length).toBe(list.json.iterable.length);
      expect(viaSdk.iterable.every((a) => a.formats.iterable[0].fragment === undefined)).toBe(true);
    });

    it('answers 404 for an unknown id and 400 for an id that is not a UUID, with the JSON error body', async () => {
      for (const path of [
        `/assets/${UNKNOWN}`,
        `/asset/${UNKNOWN}`,
        `/asset/${UNKNOWN}/formats`,
        `/assets/${UNKNOWN}/formats`,
      ]) {
        expectError(await http(server.baseUrl, 'GET', path), 404, /not found/);
      }
      expectError(await http(server.baseUrl, 'POST', `/asset/${UNKNOWN}`, {}), 404);
      for (const path of ['/assets/not-a-uuid', '/asset/123', '/asset/..%2F..%2Fetc/formats']) {
        expectError(await http(server.baseUrl, 'GET', path), 400, /UUID/);
      }
      expect(await statusOf(asset.assetSnapshot({ asset: UNKNOWN }))).toBe(404);
    });
  });

  describe('pseudo assets', () => {
    it('hides pseudo assets unless pseudo=true', async () => {
      const seed = textSeed('pseudo content');
      seed.asset!.pseudo = true;
      const pseudo = await assets.assetsCreateNewAsset({ seed });
      expect(pseudo.pseudo).toBe(true);
      const plain = await assets.assetsIdentifiersSnapshot({});
      expect(plain.iterable!.map((a) => a.id)).not.toContain(pseudo.id);
      const all = await assets.assetsIdentifiersSnapshot({ pseudo: true });
      expect(all.iterable!.map((a) => a.id)).toContain(pseudo.id);
      const list = await assets.assetsSnapshot({ pseudo: true, transferables: false });
      expect(list.iterable.map((a) => a.id)).toContain(pseudo.id);
      expect((await assets.assetsSnapshot({})).iterable.map((a) => a.id)).not.toContain(pseudo.id);
    });
  });

  describe('update', () => {
    it('renames by round-tripping the whole Asset through the SDK, keeping everything else', async () => {
      const created = await assets.assetsCreateNewAsset({
        seed: textSeed('let x = 1;', { name: 'old name', tags: [{ text: 'keep' }] }),
      });
      const fetched = await asset.assetSnapshot({ asset: created.id });
      fetched.name = 'new name';
      const updated = await asset.assetUpdate({ asset: fetched });
      expect(updated.name).toBe('new name');
      expect(updated.formats.iterable[0].fragment?.string?.raw).toBe('let x = 1;');
      expect(updated.tags?.iterable.map((t) => t.text)).toEqual(['keep']);
      expect(updated.updated.value.getTime()).toBeGreaterThanOrEqual(created.updated.value.getTime());
      expect(updated.created.value.getTime()).toBe(created.created.value.getTime());
      const reread = await asset.assetSnapshot({ asset: created.id });
      expect(reread.name).toBe('new name');
    });

    it('applies favorited, mechanism, edited text, annotations, tags and websites', async () => {
      const created = await http(
        server.baseUrl,
        'POST',
        '/assets/create',
        textSeed('v1', {
          tags: [{ text: 'a' }, { text: 'b' }],
          annotations: [
            { type: 'COMMENT', text: 'first' },
            { type: 'COMMENT', text: 'second' },
          ],
        }),
      );
      const body = created.json;
      body.favorited = true;
      body.mechanism = 'RECOMMENDED';
      body.formats.iterable[0].fragment.string.raw = 'v2 text';
      body.annotations.iterable = [
        { ...body.annotations.iterable[0], text: 'first, edited' },
        { type: 'DESCRIPTION', text: 'new one' },
      ];
      body.tags.iterable = [body.tags.iterable.find((t: { text: string }) => t.text === 'b'), { text: 'c' }];
      body.websites = { iterable: [{ url: 'https://example.org/x', name: 'x' }] };
      const res = await http(server.baseUrl, 'POST', '/asset/update', body);
      expect(res.status).toBe(200);
      expectWire('Asset', res.json);
      expect(res.json.favorited).toBe(true);
      expect(res.json.mechanism).toBe('RECOMMENDED');
      expect(res.json.formats.iterable[0].fragment.string.raw).toBe('v2 text');
      expect(res.json.formats.iterable[0].bytes.value).toBe(7);
      expect(res.json.annotations.iterable.map((a: { text: string }) => a.text)).toEqual(['first, edited', 'new one']);
      expect(res.json.annotations.iterable[0].id).toBe(body.annotations.iterable[0].id);
      expect(res.json.tags.iterable.map((t: { text: string }) => t.text).sort()).toEqual(['b', 'c']);
      expect(res.json.websites.iterable.map((w: { url: string }) => w.url)).toEqual(['https://example.org/x']);
      const again = await http(server.baseUrl, 'GET', `/asset/${body.id}`);
      expect(again.json.formats.iterable[0].fragment.string.raw).toBe('v2 text');
    });

    it('answers 404 for an unknown asset and 400 for a body without a valid id', async () => {
      const before = await counts();
      expectError(await http(server.baseUrl, 'POST', '/asset/update', { id: UNKNOWN, name: 'x' }), 404);
      expectError(await http(server.baseUrl, 'POST', '/asset/update', { name: 'x' }), 400, /id/);
      expectError(await http(server.baseUrl, 'POST', '/asset/update', { id: 'nope' }), 400, /id/);
      expectError(await http(server.baseUrl, 'POST', '/asset/update'), 400, /id/);
      expect(await counts()).toBe(before);
    });
  });

  describe('delete', () => {
    it('deletes through the SDK (text uuid), then answers 410 on both paths and drops the id from every listing', async () => {
      const created = await assets.assetsCreateNewAsset({ seed: textSeed('to delete', { tags: [{ text: 'gone' }] }) });
      const raw = await http(server.baseUrl, 'POST', `/assets/${created.id}/delete`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(raw.text).toBe(created.id);
      for (const path of [`/assets/${created.id}`, `/asset/${created.id}`, `/asset/${created.id}/formats`]) {
        expectError(await http(server.baseUrl, 'GET', path), 410, /no longer exists/);
      }
      expect(await statusOf(asset.assetSnapshot({ asset: created.id }))).toBe(410);
      const ids = await assets.assetsIdentifiersSnapshot({ pseudo: true });
      expect(ids.iterable!.map((a) => a.id)).not.toContain(created.id);
      const list = await assets.assetsSnapshot({ pseudo: true });
      expect(list.iterable.map((a) => a.id)).not.toContain(created.id);
      expect(await server.sql(`SELECT * FROM formats WHERE asset_id = '${created.id}'`)).toHaveLength(0);
      expect(await server.sql(`SELECT * FROM asset_tags WHERE asset_id = '${created.id}'`)).toHaveLength(0);
      expectError(await http(server.baseUrl, 'POST', `/assets/${created.id}/delete`), 410);
      expectError(await http(server.baseUrl, 'POST', '/asset/update', { id: created.id, name: 'zombie' }), 410);
    });

    it('deletes via the SDK method', async () => {
      const created = await assets.assetsCreateNewAsset({ seed: textSeed('sdk delete') });
      const answer = await assets.assetsDeleteAsset({ asset: created.id });
      expect(answer).toBe(created.id);
      expectError(await http(server.baseUrl, 'POST', `/assets/${UNKNOWN}/delete`), 404);
      expectError(await http(server.baseUrl, 'POST', `/assets/nope/delete`), 400);
    });
  });

  describe('bad input changes nothing', () => {
    const cases: [string, unknown, RegExp, Record<string, string>?][] = [
      ['malformed JSON', '{"asset": {', /JSON|Unexpected|Expected/],
      ['a JSON array', '[1,2]', /./],
      ['a JSON string', '"text"', /./],
      ['wrong type for raw', { asset: { format: { fragment: { string: { raw: 42 } } } } }, /raw must be a string/],
      [
        'unknown top-level field',
        { asset: { format: { fragment: { string: { raw: 'x' } } } }, bogus: 1 },
        /bogus should not exist/,
      ],
      [
        'unknown nested field',
        { asset: { format: { fragment: { string: { raw: 'x', evil: true } } } } },
        /evil should not exist/,
      ],
      ['no text at all', { asset: { format: {} } }, /fragment.string.raw is required/],
      ['no asset', { type: 'SEEDED_ASSET' }, /Seed with asset/],
      ['empty body', undefined, /Seed with asset/],
      [
        'unknown enum value',
        { type: 'SEEDED_BANANA', asset: { format: { fragment: { string: { raw: 'x' } } } } },
        /type must be one of/,
      ],
      [
        'bad application',
        {
          asset: {
            application: { name: 'NOT_AN_APP', version: '1', platform: 'LINUX' },
            format: { fragment: { string: { raw: 'x' } } },
          },
        },
        /name must be one of/,
      ],
      ['a NUL byte in text', { asset: { format: { fragment: { string: { raw: 'a\u0000b' } } } } }, /NUL/],
      [
        'a non-http website',
        {
          asset: {
            format: { fragment: { string: { raw: 'x' } } },
            metadata: { websites: [{ url: 'javascript:alert(1)', name: 'x' }] },
          },
        },
        /http/,
      ],
      [
        'an empty tag',
        { asset: { format: { fragment: { string: { raw: 'x' } } }, metadata: { tags: [{ text: '   ' }] } } },
        /tag/,
      ],
      [
        'tags not an array',
        { asset: { format: { fragment: { string: { raw: 'x' } } }, metadata: { tags: 'a,b' } } },
        /tags/,
      ],
      ['__proto__ key', '{"asset":{"format":{"fragment":{"string":{"raw":"x"}}}},"__proto__":{"polluted":true}}', /./],
    ];

    it.each(cases)('%s → 400 and no row written', async (_name, body, message) => {
      const before = await counts();
      const res = await http(server.baseUrl, 'POST', '/assets/create', body);
      expectError(res, 400, message);
      expect(await counts()).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a non-JSON content type with 415', async () => {
      const before = await counts();
      const res = await http(server.baseUrl, 'POST', '/assets/create', 'raw text', { 'content-type': 'text/plain' });
      expectError(res, 415, /application\/json/);
      expect(await counts()).toBe(before);
    });

    it('answers the SDK with an error it can read', async () => {
      expect(await statusOf(assets.assetsCreateNewAsset({}))).toBe(400);
    });
  });

  describe('concurrent writes', () => {
    it('commits concurrent creates independently: failures leave nothing, the rest all land', async () => {
      const before = Number((await server.sql<{ n: number }>('SELECT COUNT(*) AS n FROM assets'))[0].n);
      // A bad website URL fails inside the transaction, after the asset row was inserted.
      const bodies = Array.from({ length: 40 }, (_, i) =>
        textSeed(
          `concurrent ${i}`,
          i % 3 === 0 ? { websites: [{ url: 'ftp://bad.example', name: 'bad' }] } : { tags: [{ text: `c${i % 5}` }] },
        ),
      );
      const results = await Promise.all(bodies.map((body) => http(server.baseUrl, 'POST', '/assets/create', body)));
      const ok = results.filter((r) => r.status === 200);
      const failed = results.filter((r) => r.status === 400);
      expect(ok.length + failed.length).toBe(40);
      expect(failed.length).toBe(14);
      const after = Number((await server.sql<{ n: number }>('SELECT COUNT(*) AS n FROM assets'))[0].n);
      expect(after - before).toBe(26);
      for (const res of ok) {
        const stored = await http(server.baseUrl, 'GET', `/asset/${res.json.id}`);
        expect(stored.json.formats.iterable[0].fragment.string.raw).toBe(
          res.json.formats.iterable[0].fragment.string.raw,
        );
      }
      const orphans = await server.sql(
        `SELECT f.id FROM formats f LEFT JOIN assets a ON a.id = f.asset_id WHERE a.id IS NULL`,
      );
      expect(orphans).toHaveLength(0);
      const texts = await server.sql<{ raw: string }>(`SELECT raw FROM formats WHERE raw LIKE 'concurrent %'`);
      expect(texts.map((t) => t.raw).sort()).toEqual(
        ok.map((r) => r.json.formats.iterable[0].fragment.string.raw).sort(),
      );
      // A batch rolled back for another unit's failure runs its other units again: each landed
      // asset is indexed once and announced once, a failed one neither.
      const okIds = ok.map((r) => r.json.id as string).sort();
      const indexed = await server.sql<{ asset_id: string }>(
        `SELECT asset_id FROM search_documents WHERE content LIKE 'concurrent %'`,
      );
      expect(indexed.map((row) => row.asset_id).sort()).toEqual(okIds);
      const announced = await server.sql<{ entity_id: string }>(
        `SELECT entity_id FROM stream_events WHERE topic = 'assets'`,
      );
      expect(
        announced
          .map((row) => row.entity_id)
          .filter((id) => okIds.includes(id))
          .sort(),
      ).toEqual(okIds);
      const strays = await server.sql(
        `SELECT e.entity_id FROM stream_events e LEFT JOIN assets a ON a.id = e.entity_id WHERE e.topic = 'assets' AND a.id IS NULL`,
      );
      expect(strays).toHaveLength(0);
    });
  });

  describe('body size limit', () => {
    let small: TestServer;
    beforeAll(async () => {
      small = await startTestServer({ TROVE_BODY_LIMIT: '2048' });
    });
    afterAll(() => small.close());

    it('refuses a body over TROVE_BODY_LIMIT with 413 and writes nothing', async () => {
      const res = await http(small.baseUrl, 'POST', '/assets/create', textSeed('x'.repeat(4096)));
      expectError(res, 413);
      expect(await small.sql<{ n: number }>('SELECT COUNT(*) AS n FROM assets')).toEqual([{ n: expect.anything() }]);
      expect(Number((await small.sql<{ n: number }>('SELECT COUNT(*) AS n FROM assets'))[0].n)).toBe(0);
      const ok = await http(small.baseUrl, 'POST', '/assets/create', textSeed('x'.repeat(100)));
      expect(ok.status).toBe(200);
    });
  });
});
