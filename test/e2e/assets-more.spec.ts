import {
  Asset,
  AssetApi,
  AssetSpecificAssetExportExportTypeEnum as ExportTypeEnum,
  AssetsApi,
} from '@pieces.app/pieces-os-client';
import { EventBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AssetsSearchedEvent } from '../../src/modules/assets/events/assets-searched.event';
import { expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';

/** Everything issue 3 (assets) adds, beyond the core store of assets.spec.ts. */
describe('assets: pseudo, draft, reclassify, links, scores, activities, export', () => {
  let server: TestServer;
  let assets: AssetsApi;
  let asset: AssetApi;

  beforeAll(async () => {
    server = await startTestServer();
    assets = new AssetsApi(server.sdk);
    asset = new AssetApi(server.sdk);
  });
  afterAll(() => server.close());

  const TABLES = [
    'assets',
    'formats',
    'annotations',
    'tags',
    'asset_tags',
    'websites',
    'asset_websites',
    'applications',
    'workstream_summaries',
    'asset_workstream_summaries',
  ];
  /** Row counts of every asset table plus a digest of the asset rows: a rejected request leaves them unchanged. */
  async function snapshot(): Promise<string> {
    const counts = await server.counts(TABLES);
    const assetRows = await server.sql(
      `SELECT id, name, updated_at, score_manual, score_automatic, score_reuse, score_update, score_reference, score_priority, score_searched FROM assets ORDER BY id`,
    );
    const formatRows = await server.sql(`SELECT id, generic, specific, updated_at FROM formats ORDER BY id`);
    return `${counts} ${JSON.stringify(assetRows)} ${JSON.stringify(formatRows)}`;
  }

  async function create(raw: string, metadata: Record<string, unknown> = {}): Promise<Asset> {
    return assets.assetsCreateNewAsset({ seed: textSeed(raw, metadata) });
  }

  async function deleted(raw = 'to be deleted'): Promise<string> {
    const { id } = await create(raw);
    await assets.assetsDeleteAsset({ asset: id });
    return id;
  }

  /** Activities are recorded by an event handler after the answer: poll briefly. */
  async function activitiesUntil(id: string, done: (events: string[]) => boolean): Promise<any> {
    const deadline = Date.now() + 3000;
    for (;;) {
      const res = await http(server.baseUrl, 'GET', `/asset/${id}/activities`);
      expect(res.status).toBe(200);
      const events = res.json.iterable.map(eventKey);
      if (done(events) || Date.now() > deadline) return res.json;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** `asset_viewed`, `assets_searched`, ... : the identifier of an Activity's event. */
  function eventKey(activity: {
    event: { asset?: { identifier_description_pair: object }; assets?: { identifier_description_pair: object } };
  }): string {
    return Object.keys((activity.event.asset ?? activity.event.assets)!.identifier_description_pair)[0];
  }

  describe('GET /assets/pseudo and the pseudo flag', () => {
    let pseudoId: string;
    let normalId: string;
    beforeAll(async () => {
      const res = await http(server.baseUrl, 'POST', '/assets/create', {
        asset: { pseudo: true, format: { fragment: { string: { raw: 'pseudo body' } } } },
      });
      expect(res.status).toBe(200);
      pseudoId = res.json.id;
      expect(res.json.pseudo).toBe(true);
      normalId = (await create('normal body')).id;
    });

    it('lists only pseudo assets, as PseudoAssets the SDK parses', async () => {
      const raw = await http(server.baseUrl, 'GET', '/assets/pseudo');
      expect(raw.status).toBe(200);
      expectWire('PseudoAssets', raw.json);
      const ids = raw.json.identifiers.iterable.map((i: { id: string }) => i.id);
      expect(ids).toContain(pseudoId);
      expect(ids).not.toContain(normalId);
      expect(raw.json.identifiers.indices[pseudoId]).toBe(ids.indexOf(pseudoId));
      const viaSdk = await assets.assetsPseudoSnapshot();
      expect(viaSdk.identifiers?.iterable?.map((i) => i.id)).toEqual(ids);
    });

    it('hides pseudo assets from the snapshot and identifiers unless pseudo=true', async () => {
      const plain = await assets.assetsSnapshot({});
      expect(plain.iterable.map((a) => a.id)).not.toContain(pseudoId);
      const withPseudo = await assets.assetsSnapshot({ pseudo: true });
      expect(withPseudo.iterable.map((a) => a.id)).toEqual(expect.arrayContaining([pseudoId, normalId]));
      const ids = await assets.assetsIdentifiersSnapshot({});
      expect(ids.iterable!.map((i) => i.id)).not.toContain(pseudoId);
      const idsWithPseudo = await assets.assetsIdentifiersSnapshot({ pseudo: true });
      expect(idsWithPseudo.iterable!.map((i) => i.id)).toContain(pseudoId);
      expectError(await http(server.baseUrl, 'GET', '/assets?pseudo=yes'), 400, /pseudo/);
    });

    it('drops a deleted pseudo asset, and shows one made pseudo by update', async () => {
      const gone = await http(server.baseUrl, 'POST', '/assets/create', {
        asset: { pseudo: true, format: { fragment: { string: { raw: 'short-lived' } } } },
      });
      await assets.assetsDeleteAsset({ asset: gone.json.id });
      const made = await create('becomes pseudo');
      await asset.assetUpdate({ asset: { ...made, pseudo: true } });
      const ids = (await assets.assetsPseudoSnapshot()).identifiers!.iterable!.map((i) => i.id);
      expect(ids).not.toContain(gone.json.id);
      expect(ids).toContain(made.id);
    });
  });

  describe('POST /assets/draft', () => {
    const python =
      'def fibonacci_sequence(count):\n    """Return the first count Fibonacci numbers."""\n    sequence = [0, 1]\n    while len(sequence) < count:\n        sequence.append(sequence[-1] + sequence[-2])\n    return sequence[:count]\n';

    it('classifies, names and tags a code seed, and persists nothing', async () => {
      const before = await snapshot();
      const raw = await http(server.baseUrl, 'POST', '/assets/draft', textSeed(python));
      expect(raw.status).toBe(200);
      expectWire('Seed', raw.json);
      const drafted = raw.json;
      expect(drafted.asset.format.classification).toEqual({ generic: 'CODE', specific: 'py' });
      expect(drafted.asset.format.fragment.string.raw).toBe(python);
      expect(drafted.asset.metadata.name).toBe(
        'fibonacci_sequence: return the first count Fibonacci numbers (Python function)',
      );
      const tags = drafted.asset.metadata.tags.map((t: { text: string }) => t.text);
      expect(tags[0]).toBe('python');
      expect(tags).toContain('sequence');
      expect(tags).toContain('fibonacci');
      expect(tags).not.toContain('def');
      expect(tags).not.toContain('return');
      expect(new Set(tags).size).toBe(tags.length);
      expect(drafted.asset.metadata.tags.every((t: { mechanism: string }) => t.mechanism === 'AUTOMATIC')).toBe(true);
      expect(drafted.asset.application.name).toBe('VS_CODE');
      expect(await snapshot()).toBe(before);

      const viaSdk = await assets.assetsDraft({ seed: textSeed(python) });
      expect(viaSdk.asset?.metadata?.name).toBe(
        'fibonacci_sequence: return the first count Fibonacci numbers (Python function)',
      );
      expect(viaSdk.asset?.format.classification?.specific).toBe('py');
      expect(await snapshot()).toBe(before);
    });

    it('is deterministic and ranks repeated identifiers first', async () => {
      const ts =
        'export function parseUserProfile(input: string): UserProfile {\n  const profile = JSON.parse(input) as UserProfile;\n  validateUserProfile(profile);\n  return profile;\n}\n';
      const a = await http(server.baseUrl, 'POST', '/assets/draft', textSeed(ts));
      const b = await http(server.baseUrl, 'POST', '/assets/draft', textSeed(ts));
      expect(a.json).toEqual(b.json);
      const tags = a.json.asset.metadata.tags.map((t: { text: string }) => t.text);
      expect(tags.slice(1, 3).sort()).toEqual(['profile', 'user']);
      expect(a.json.asset.metadata.name).toMatch(/^parseUserProfile: parses user profile \(\w+ function\)$/);
    });

    it('keeps a given name, given tags and a given classification, merging suggested tags without duplicates', async () => {
      const seed = textSeed(python, { name: 'My fib', tags: [{ text: 'Python' }, { text: 'maths' }] });
      (seed.asset!.format as any).classification = { generic: 'CODE', specific: 'rb' };
      const drafted = await http(server.baseUrl, 'POST', '/assets/draft', seed);
      expect(drafted.status).toBe(200);
      expect(drafted.json.asset.metadata.name).toBe('My fib');
      expect(drafted.json.asset.format.classification).toEqual({ generic: 'CODE', specific: 'rb' });
      const tags = drafted.json.asset.metadata.tags.map((t: { text: string }) => t.text);
      expect(tags.slice(0, 2)).toEqual(['Python', 'maths']);
      expect(tags).toContain('ruby');
      expect(tags.filter((t: string) => t.toLowerCase() === 'python')).toHaveLength(1);
    });

    it('names prose by its first line and classifies it as TEXT', async () => {
      const prose =
        'Remember to rotate the staging credentials every Friday.\nThe vault keeps the previous two versions of every credential.';
      const drafted = await http(server.baseUrl, 'POST', '/assets/draft', textSeed(prose));
      expect(drafted.json.asset.format.classification.generic).toBe('TEXT');
      expect(drafted.json.asset.metadata.name).toBe('Remember to rotate the staging credentials every Friday.');
      expect(drafted.json.asset.metadata.tags.map((t: { text: string }) => t.text)).toContain('credentials');
    });

    it('omits the content with transferables=false', async () => {
      const drafted = await http(server.baseUrl, 'POST', '/assets/draft?transferables=false', textSeed(python));
      expect(drafted.status).toBe(200);
      expect(drafted.json.asset.format.fragment).toBeUndefined();
      expect(drafted.json.asset.metadata.name).toBe(
        'fibonacci_sequence: return the first count Fibonacci numbers (Python function)',
      );
    });

    it('returns an image seed unchanged', async () => {
      const image = {
        type: 'SEEDED_ASSET',
        asset: {
          format: {
            file: { bytes: { raw: [137, 80, 78, 71, 13, 10, 26, 10] } },
            classification: { generic: 'IMAGE', specific: 'png' },
          },
          metadata: { name: 'logo' },
        },
      };
      const before = await snapshot();
      const drafted = await http(server.baseUrl, 'POST', '/assets/draft', image);
      expect(drafted.status).toBe(200);
      expect(drafted.json).toEqual(image);
      const bytesOnly = { type: 'SEEDED_ASSET', asset: { format: { fragment: { bytes: { raw: [1, 2, 3] } } } } };
      expect((await http(server.baseUrl, 'POST', '/assets/draft', bytesOnly)).json).toEqual(bytesOnly);
      expect(await snapshot()).toBe(before);
    });

    it('rejects a missing seed, unknown fields and wrong types with 400', async () => {
      const before = await snapshot();
      expectError(
        await http(server.baseUrl, 'POST', '/assets/draft', '', { 'content-type': 'application/json' }),
        400,
        /Seed/,
      );
      expect(await statusOf(assets.assetsDraft({}))).toBe(400);
      expectError(
        await http(server.baseUrl, 'POST', '/assets/draft', { ...textSeed('x = 1'), bogus: 1 }),
        400,
        /bogus/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/assets/draft', {
          asset: { format: { fragment: { string: { raw: 42 } } } },
        }),
        400,
        /raw/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/assets/draft', {
          asset: { format: { classification: { generic: 'CODE', specific: 'nope' } } },
        }),
        400,
        /specific/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/assets/draft?transferables=maybe', textSeed('x')),
        400,
        /transferables/,
      );
      expect(await snapshot()).toBe(before);
    });
  });

  describe('POST /asset/reclassify', () => {
    it('relabels the text formats to the given language and answers the whole asset', async () => {
      const created = await create('const answer = 42;\nconsole.log(answer);\n', { name: 'answer' });
      expect(created.formats.iterable[0].classification.specific).not.toBe('ts');
      const raw = await http(server.baseUrl, 'POST', '/asset/reclassify', {
        ext: 'ts',
        asset: JSON.parse(
          JSON.stringify(await http(server.baseUrl, 'GET', `/asset/${created.id}`).then((r) => r.json)),
        ),
      });
      expect(raw.status).toBe(200);
      expectWire('Asset', raw.json);
      expect(raw.json.formats.iterable[0].classification).toEqual({ generic: 'CODE', specific: 'ts' });
      expect(raw.json.original.reference.classification).toEqual({ generic: 'CODE', specific: 'ts' });
      expect(raw.json.formats.iterable[0].fragment.string.raw).toContain('answer = 42');
      expect((await asset.assetSnapshot({ asset: created.id })).formats.iterable[0].classification.specific).toBe('ts');

      // Through the SDK, round-tripping the Asset it parsed; prose codes become TEXT.
      const full = await asset.assetSnapshot({ asset: created.id });
      const asText = await asset.assetReclassify({
        assetReclassification: { ext: 'txt' as any, asset: full },
        transferables: false,
      });
      expect(asText.formats.iterable[0].classification.generic).toBe('TEXT');
      expect(asText.formats.iterable[0].classification.specific).toBe('txt');
      expect(asText.formats.iterable[0].fragment).toBeUndefined();
      const rows = await server.sql<{ generic: string; specific: string }>(
        `SELECT generic, specific FROM formats WHERE asset_id = '${created.id}'`,
      );
      expect(rows).toEqual([{ generic: 'TEXT', specific: 'txt' }]);
      const again = await activitiesUntil(
        created.id,
        (e) => e.filter((k) => k === 'asset_format_specific_classification_updated').length >= 2,
      );
      const reclassified = again.iterable.filter(
        (a: any) => eventKey(a) === 'asset_format_specific_classification_updated',
      );
      expect(reclassified).toHaveLength(2);
      expect(reclassified[0].event.asset.metadata.reclassification).toEqual({
        previous: { generic: 'CODE', specific: 'ts' },
        current: { generic: 'TEXT', specific: 'txt' },
      });
    });

    it('answers 404 for an unknown asset and 410 for a deleted one, changing nothing', async () => {
      const sample = await create('SELECT 1;');
      const gone = await deleted();
      const before = await snapshot();
      const unknown = await http(server.baseUrl, 'POST', '/asset/reclassify', {
        ext: 'py',
        asset: { ...(await http(server.baseUrl, 'GET', `/asset/${sample.id}`)).json, id: UNKNOWN },
      });
      expectError(unknown, 404, /not found/);
      expectError(await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'py', asset: { id: gone } }), 410);
      expect(await snapshot()).toBe(before);
    });

    it('rejects a bad ext, a missing or malformed asset and unknown fields with 400, changing nothing', async () => {
      const { id } = await create('print("x")');
      const before = await snapshot();
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'klingon', asset: { id } }),
        400,
        /ext/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'png', asset: { id } }),
        400,
        /not a text language/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'UNKNOWN', asset: { id } }),
        400,
        /ext/,
      );
      expectError(await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'py' }), 400, /asset/);
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'py', asset: { id: 'not-a-uuid' } }),
        400,
        /id/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'py', asset: { id }, extra: true }),
        400,
        /extra/,
      );
      expectError(
        await http(server.baseUrl, 'POST', '/asset/reclassify', '', { 'content-type': 'application/json' }),
        400,
      );
      expect(await snapshot()).toBe(before);
    });
  });

  describe('links: tags, websites, workstream summaries', () => {
    let tagged: Asset;
    let plain: Asset;
    /** The tags Trove gave `plain`, saved without any. */
    let plainTags: string[];
    let tagId: string;
    let websiteId: string;
    beforeAll(async () => {
      tagged = await create('fn main() {}', {
        tags: [{ text: 'linkable' }],
        websites: [{ url: 'https://link.example/docs', name: 'Link docs' }],
      });
      plain = await create('fn other() {}');
      plainTags = plain.tags!.iterable.map((t) => t.text);
      expect(plainTags.length).toBeGreaterThan(0);
      tagId = tagged.tags!.iterable[0].id;
      websiteId = tagged.websites!.iterable[0].id;
    });

    async function joinRows(table: string, column: string, target: string): Promise<string[]> {
      const rows = await server.sql<{ asset_id: string }>(
        `SELECT asset_id FROM ${table} WHERE ${column} = '${target}' ORDER BY asset_id`,
      );
      return rows.map((r) => r.asset_id);
    }

    it('associates a tag: 204 with no body, visible on the asset and as a join row; idempotent', async () => {
      const res = await http(server.baseUrl, 'POST', `/asset/${plain.id}/tags/associate/${tagId}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      await asset.assetAssociateTag({ asset: plain.id, tag: tagId }); // twice: still fine
      const seen = await asset.assetSnapshot({ asset: plain.id });
      expect(seen.tags?.iterable.map((t) => t.text)).toEqual([...plainTags, 'linkable']);
      expect(seen.tags?.iterable[plainTags.length].id).toBe(tagId);
      expect(await joinRows('asset_tags', 'tag_id', tagId)).toEqual([plain.id, tagged.id].sort());
      expect(await server.sql(`SELECT id FROM tags WHERE text = 'linkable'`)).toHaveLength(1);
    });

    it('disassociates a tag: removes only that link, keeps the tag and the other asset; idempotent', async () => {
      await asset.assetDisassociateTag({ asset: plain.id, tag: tagId });
      const res = await http(server.baseUrl, 'POST', `/asset/${plain.id}/tags/disassociate/${tagId}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await asset.assetSnapshot({ asset: plain.id })).tags?.iterable.map((t) => t.text)).toEqual(plainTags);
      expect((await asset.assetSnapshot({ asset: tagged.id })).tags?.iterable.map((t) => t.id)).toEqual([tagId]);
      expect(await joinRows('asset_tags', 'tag_id', tagId)).toEqual([tagged.id]);
      expect(await server.sql(`SELECT id FROM tags WHERE id = '${tagId}'`)).toHaveLength(1);
    });

    it('associates and disassociates a website the same way', async () => {
      await asset.assetAssociateWebsite({ asset: plain.id, website: websiteId });
      expect((await http(server.baseUrl, 'POST', `/asset/${plain.id}/websites/associate/${websiteId}`)).status).toBe(
        204,
      );
      const seen = await asset.assetSnapshot({ asset: plain.id });
      expect(seen.websites?.iterable.map((w) => [w.url, w.name])).toEqual([['https://link.example/docs', 'Link docs']]);
      expect(await joinRows('asset_websites', 'website_id', websiteId)).toEqual([plain.id, tagged.id].sort());
      await asset.assetDisassociateWebsite({ asset: plain.id, website: websiteId });
      expect((await http(server.baseUrl, 'POST', `/asset/${plain.id}/websites/disassociate/${websiteId}`)).status).toBe(
        204,
      );
      expect((await asset.assetSnapshot({ asset: plain.id })).websites?.iterable).toEqual([]);
      expect(await joinRows('asset_websites', 'website_id', websiteId)).toEqual([tagged.id]);
      expect(await server.sql(`SELECT id FROM websites WHERE id = '${websiteId}'`)).toHaveLength(1);
    });

    it('associates and disassociates a workstream summary, shown complete on the asset', async () => {
      const summaryId = randomUUID();
      const at = '2025-01-02T03:04:05.000Z';
      await server.sql(
        `INSERT INTO workstream_summaries (id, name, created_at, updated_at) VALUES ('${summaryId}', 'Refactoring week', '${at}', '${at}')`,
      );
      await asset.assetAssociateWorkstreamSummary({ asset: plain.id, workstreamSummary: summaryId });
      const res = await http(server.baseUrl, 'POST', `/asset/${plain.id}/workstream_summaries/associate/${summaryId}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const raw = await http(server.baseUrl, 'GET', `/asset/${plain.id}`);
      expectWire('Asset', raw.json);
      expect(raw.json.summaries.iterable).toHaveLength(1);
      expectWire('WorkstreamSummary', raw.json.summaries.iterable[0]);
      expect(raw.json.summaries.iterable[0]).toEqual(
        expect.objectContaining({ id: summaryId, name: 'Refactoring week' }),
      );
      const viaSdk = await asset.assetSnapshot({ asset: plain.id });
      expect(viaSdk.summaries?.iterable[0].name).toBe('Refactoring week');
      expect(viaSdk.summaries?.iterable[0].created.value).toBeInstanceOf(Date);
      expect(await joinRows('asset_workstream_summaries', 'workstream_summary_id', summaryId)).toEqual([plain.id]);

      await asset.assetDisassociateWorkstreamSummary({ asset: plain.id, workstreamSummary: summaryId });
      expect(
        (await http(server.baseUrl, 'POST', `/asset/${plain.id}/workstream_summaries/disassociate/${summaryId}`))
          .status,
      ).toBe(204);
      expect((await asset.assetSnapshot({ asset: plain.id })).summaries?.iterable).toEqual([]);
      expect(await joinRows('asset_workstream_summaries', 'workstream_summary_id', summaryId)).toEqual([]);
      expect(await server.sql(`SELECT id FROM workstream_summaries WHERE id = '${summaryId}'`)).toHaveLength(1);
    });

    it('round-trips an asset with links through POST /asset/update without losing them', async () => {
      await asset.assetAssociateTag({ asset: plain.id, tag: tagId });
      const full = await asset.assetSnapshot({ asset: plain.id });
      const updated = await asset.assetUpdate({ asset: { ...full, name: 'renamed with links' } });
      expect(updated.name).toBe('renamed with links');
      expect(updated.tags?.iterable.map((t) => t.text)).toEqual([...plainTags, 'linkable']);
      expect(updated.tags?.iterable[plainTags.length].id).toBe(tagId);
      await asset.assetDisassociateTag({ asset: plain.id, tag: tagId });
    });

    it('answers 404 for an unknown asset or link target, 410 for a deleted asset, 400 for a malformed id, changing nothing', async () => {
      const gone = await deleted();
      const before = await snapshot();
      for (const kind of ['tags', 'websites', 'workstream_summaries']) {
        const target = kind === 'tags' ? tagId : kind === 'websites' ? websiteId : UNKNOWN;
        for (const action of ['associate', 'disassociate']) {
          expectError(
            await http(server.baseUrl, 'POST', `/asset/${UNKNOWN}/${kind}/${action}/${target}`),
            404,
            /asset .* not found/,
          );
          expectError(
            await http(server.baseUrl, 'POST', `/asset/${plain.id}/${kind}/${action}/${UNKNOWN}`),
            404,
            /not found/,
          );
          expectError(await http(server.baseUrl, 'POST', `/asset/${gone}/${kind}/${action}/${target}`), 410);
          expectError(
            await http(server.baseUrl, 'POST', `/asset/not-a-uuid/${kind}/${action}/${target}`),
            400,
            /asset must be a UUID/,
          );
          expectError(
            await http(server.baseUrl, 'POST', `/asset/${plain.id}/${kind}/${action}/nope`),
            400,
            /must be a UUID/,
          );
        }
      }
      expect(await statusOf(asset.assetAssociateTag({ asset: plain.id, tag: UNKNOWN }))).toBe(404);
      expect(await statusOf(asset.assetAssociateWebsite({ asset: gone, website: websiteId }))).toBe(410);
      expect(await snapshot()).toBe(before);
    });

    it('drops the links of a deleted asset but keeps the tag for the other asset', async () => {
      const doomed = await create('doomed');
      await asset.assetAssociateTag({ asset: doomed.id, tag: tagId });
      await assets.assetsDeleteAsset({ asset: doomed.id });
      expect(await joinRows('asset_tags', 'tag_id', tagId)).toEqual([tagged.id]);
    });
  });

  describe('POST /asset/{asset}/scores/increment', () => {
    it('increments the flagged counters, reflected in asset.score', async () => {
      const { id } = await create('let x = 1;');
      expect((await asset.assetSnapshot({ asset: id })).score).toEqual(
        expect.objectContaining({ manual: 0, automatic: 0 }),
      );
      await asset.assetScoresIncrement({ asset: id, seededScoreIncrement: { asset: { reuse: true } } });
      const res = await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, {
        asset: { reuse: true, reference: true, searched: true, update: false },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      // Other kinds are accepted alongside and do not count here.
      await asset.assetScoresIncrement({
        asset: id,
        seededScoreIncrement: {
          asset: { priority: true },
          conversation: { reuse: true },
          anchorPoint: { update: true },
        },
      });
      const raw = await http(server.baseUrl, 'GET', `/asset/${id}`);
      expectWire('Asset', raw.json);
      expect(raw.json.score).toEqual({
        manual: 4,
        automatic: 1,
        reuse: 2,
        update: 0,
        reference: 1,
        priority: 1,
        searched: 1,
      });
      const viaSdk = await asset.assetSnapshot({ asset: id });
      expect(viaSdk.score?.reuse).toBe(2);
      expect((await assets.assetsSnapshot({})).iterable.find((a) => a.id === id)?.score?.manual).toBe(4);
    });

    it('adds up concurrent increments', async () => {
      const { id } = await create('concurrent');
      await Promise.all(
        Array.from({ length: 8 }, () =>
          asset.assetScoresIncrement({ asset: id, seededScoreIncrement: { asset: { update: true } } }),
        ),
      );
      const [row] = await server.sql<{ score_update: number | string; score_manual: number | string }>(
        `SELECT score_update, score_manual FROM assets WHERE id = '${id}'`,
      );
      expect(Number(row.score_update)).toBe(8);
      expect(Number(row.score_manual)).toBe(8);
    });

    it('rejects an empty or meaningless body and bad types with 400; 404 / 410 for unknown / deleted assets; changes nothing', async () => {
      const { id } = await create('scored badly');
      const gone = await deleted();
      const before = await snapshot();
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, '', { 'content-type': 'application/json' }),
        400,
        /asset/,
      );
      expect(await statusOf(asset.assetScoresIncrement({ asset: id }))).toBe(400);
      expectError(await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, {}), 400, /asset/);
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, { website: { reuse: true } }),
        400,
        /asset/,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, { asset: {} }),
        400,
        /at least one/,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, { asset: { reuse: 'true' } }),
        400,
        /reuse/,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, { asset: { reuse: true, bogus: true } }),
        400,
        /bogus/,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${id}/scores/increment`, { asset: { reuse: true }, bogus: 1 }),
        400,
        /bogus/,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${UNKNOWN}/scores/increment`, { asset: { reuse: true } }),
        404,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/${gone}/scores/increment`, { asset: { reuse: true } }),
        410,
      );
      expectError(
        await http(server.baseUrl, 'POST', `/asset/nope/scores/increment`, { asset: { reuse: true } }),
        400,
        /UUID/,
      );
      expect(await snapshot()).toBe(before);
    });
  });

  describe('GET /asset/{asset}/activities', () => {
    it('lists a view at once: activities waiting for their batch are written before the list is read', async () => {
      const { id } = await create('seen right away');
      await asset.assetSnapshot({ asset: id });
      await asset.assetSnapshot({ asset: id });
      const res = await http(server.baseUrl, 'GET', `/asset/${id}/activities`);
      expect(res.status).toBe(200);
      expect(res.json.iterable.map(eventKey)).toEqual(['asset_viewed', 'asset_viewed', 'asset_created']);
    });

    it('drops the waiting views of an asset deleted before their batch is written, and keeps the rest of the batch', async () => {
      const doomed = await create('viewed, then deleted');
      const kept = await create('viewed and kept');
      await asset.assetSnapshot({ asset: doomed.id });
      await asset.assetSnapshot({ asset: kept.id });
      await assets.assetsDeleteAsset({ asset: doomed.id }); // within the batch's second
      const res = await http(server.baseUrl, 'GET', `/asset/${kept.id}/activities`); // writes the batch
      expect(res.json.iterable.map(eventKey)).toEqual(['asset_viewed', 'asset_created']);
      const views = await server.sql(
        `SELECT asset_id FROM activities WHERE event = 'viewed' AND asset_id IN ('${doomed.id}', '${kept.id}')`,
      );
      expect(views.map((row) => row.asset_id)).toEqual([kept.id]);
    });

    it('records created, viewed, updated, linked, scored, exported and searched, most recent first', async () => {
      const created = await create('echo activities', { tags: [{ text: 'activity-tag' }] });
      const id = created.id;
      const first = await activitiesUntil(id, (e) => e.includes('asset_created'));
      expectWire('Activities', first);
      expect(first.iterable.map(eventKey)).toEqual(['asset_created']);
      expect(first.iterable[0].application.name).toBe('VS_CODE');
      expect(first.iterable[0].asset.id).toBe(id);
      expect(first.iterable[0].event.asset.asset.id).toBe(id);

      await asset.assetSnapshot({ asset: id });
      await activitiesUntil(id, (e) => e.includes('asset_viewed'));
      await http(server.baseUrl, 'POST', `/asset/${id}`, {});
      await activitiesUntil(id, (e) => e.filter((k) => k === 'asset_viewed').length === 2);
      await asset.assetUpdate({
        asset: { ...(await assets.assetsSpecificAssetSnapshot({ asset: id })), name: 'renamed' },
      });
      await activitiesUntil(id, (e) => e.includes('asset_updated'));
      const tagId = created.tags!.iterable[0].id;
      await asset.assetDisassociateTag({ asset: id, tag: tagId });
      await activitiesUntil(id, (e) => e.includes('asset_tag_deleted'));
      await asset.assetAssociateTag({ asset: id, tag: tagId });
      await activitiesUntil(id, (e) => e.includes('asset_tag_added'));
      await asset.assetScoresIncrement({ asset: id, seededScoreIncrement: { asset: { reuse: true } } });
      await activitiesUntil(id, (e) => e.includes('asset_referenced'));
      await asset.assetSpecificAssetExport({ asset: id, exportType: ExportTypeEnum.Md });
      await activitiesUntil(id, (e) => e.includes('asset_format_downloaded'));
      server.app.get(EventBus).publish(new AssetsSearchedEvent([id, UNKNOWN], 'echo'));
      const all = await activitiesUntil(id, (e) => e.includes('assets_searched'));

      expectWire('Activities', all);
      expect(all.iterable.map(eventKey)).toEqual([
        'assets_searched',
        'asset_format_downloaded',
        'asset_referenced',
        'asset_tag_added',
        'asset_tag_deleted',
        'asset_updated',
        'asset_viewed',
        'asset_viewed',
        'asset_created',
      ]);
      const values = all.iterable.map((a: any) => a.created.value);
      expect([...values].sort().reverse()).toEqual(values);
      expect(all.iterable[0].event.assets.metadata.search.query).toBe('echo');
      expect(all.iterable[0].mechanism).toBe('AUTOMATIC');
      expect(all.iterable[3].event.asset.metadata.tag.id).toBe(tagId);
      expect(all.iterable[3].mechanism).toBe('MANUAL');
      expect(all.iterable[0].application.name).toBe('OPEN_SOURCE');
      // A search result that is not an asset records nothing (and breaks nothing).
      expect(await server.sql(`SELECT id FROM activities WHERE asset_id = '${UNKNOWN}'`)).toHaveLength(0);

      const viaSdk = await asset.assetSpecificAssetActivities({ asset: id });
      expect(viaSdk.iterable).toHaveLength(9);
      expect(viaSdk.iterable[0].created.value).toBeInstanceOf(Date);
      expect(viaSdk.iterable[8].application.name).toBe('VS_CODE');
    });

    it('records website and summary links, and nothing for idempotent repeats', async () => {
      const { id } = await create('links and activities');
      const other = await create('with site', { websites: [{ url: 'https://activity.example/', name: 'a' }] });
      const websiteId = other.websites!.iterable[0].id;
      await asset.assetAssociateWebsite({ asset: id, website: websiteId });
      await asset.assetAssociateWebsite({ asset: id, website: websiteId });
      await asset.assetDisassociateWebsite({ asset: id, website: websiteId });
      await asset.assetDisassociateWebsite({ asset: id, website: websiteId });
      const result = await activitiesUntil(id, (e) => e.includes('asset_link_deleted'));
      expect(result.iterable.map(eventKey)).toEqual(['asset_link_deleted', 'asset_link_added', 'asset_created']);
      expect(result.iterable[1].event.asset.metadata.website.id).toBe(websiteId);

      // The SDK has no pair for summaries on an asset: linking one is recorded as an asset update.
      const summaryId = randomUUID();
      await server.sql(
        `INSERT INTO workstream_summaries (id, name, created_at, updated_at) VALUES ('${summaryId}', 's', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
      );
      await asset.assetAssociateWorkstreamSummary({ asset: id, workstreamSummary: summaryId });
      await asset.assetAssociateWorkstreamSummary({ asset: id, workstreamSummary: summaryId });
      const linked = await activitiesUntil(id, (e) => e.includes('asset_updated'));
      expect(linked.iterable.map(eventKey)).toEqual([
        'asset_updated',
        'asset_link_deleted',
        'asset_link_added',
        'asset_created',
      ]);
      const [stored] = await server.sql<{ event: string; metadata: string }>(
        `SELECT event, metadata FROM activities WHERE asset_id = '${id}' AND event = 'summary_added'`,
      );
      expect(JSON.parse(stored.metadata)).toEqual({ workstream_summary: summaryId });
    });

    it('answers 404 / 410 / 400 for unknown, deleted and malformed ids', async () => {
      const gone = await deleted();
      expectError(await http(server.baseUrl, 'GET', `/asset/${UNKNOWN}/activities`), 404);
      expectError(await http(server.baseUrl, 'GET', `/asset/${gone}/activities`), 410);
      expectError(await http(server.baseUrl, 'GET', `/asset/nope/activities`), 400, /UUID/);
      expect(await statusOf(asset.assetSpecificAssetActivities({ asset: gone }))).toBe(410);
      expect(await server.sql(`SELECT id FROM activities WHERE asset_id = '${gone}'`)).toHaveLength(0);
    });
  });

  describe('GET /asset/{asset}/export', () => {
    let id: string;
    const code = 'function greet(name) {\n  return "<script>alert(1)</script>" + name;\n}\n';
    beforeAll(async () => {
      const created = await create(code, {
        name: 'Greeter <script>evil()</script>',
        tags: [{ text: 'greeting' }, { text: '<b>bold</b>' }],
        websites: [{ url: 'https://example.com/a?b=1&c="2"', name: 'Example <docs>' }],
        annotations: [
          { type: 'DESCRIPTION', text: 'Greets a person & says hi.' },
          { type: 'COMMENT', text: 'not in the export' },
        ],
      });
      id = created.id;
      await asset.assetReclassify({ assetReclassification: { ext: 'js' as any, asset: created } });
    });

    it('exports a complete Markdown document', async () => {
      const raw = await http(server.baseUrl, 'GET', `/asset/${id}/export?export_type=MD`);
      expect(raw.status).toBe(200);
      expectWire('ExportedAsset', raw.json);
      expect(raw.json.name).toBe('Greeter <script>evil()</script>');
      expect(raw.json.description).toBe('Greets a person & says hi.');
      const md: string = raw.json.raw.string.raw;
      expect(md.startsWith('# Greeter')).toBe(true);
      expect(md).toContain('Greets a person & says hi.');
      expect(md).not.toContain('not in the export');
      expect(md).toContain('```js\n' + code.trimEnd() + '\n```');
      expect(md).toContain('## Tags');
      expect(md).toContain('- greeting');
      expect(md).toContain('## Links');
      expect(md).toMatch(/- \[Example \\<docs\\>\]\(<https:\/\/example\.com\/a\?b=1&c=%222%22>\)/);
      expect(md).not.toMatch(/<script>evil/);

      const viaSdk = await asset.assetSpecificAssetExport({ asset: id, exportType: ExportTypeEnum.Md });
      expect(viaSdk.raw.string?.raw).toBe(md);
      expect(viaSdk.created.value).toBeInstanceOf(Date);
      const camel = await http(server.baseUrl, 'GET', `/asset/${id}/export?exportType=md`);
      expect(camel.json.raw.string.raw).toBe(md);
    });

    it('exports a standalone, escaped, highlighted HTML page', async () => {
      const res = await asset.assetSpecificAssetExport({ asset: id, exportType: ExportTypeEnum.Html });
      const html = res.raw.string!.raw!;
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain('<title>Greeter &lt;script&gt;evil()&lt;/script&gt;</title>');
      expect(html).toContain('<h1>Greeter &lt;script&gt;evil()&lt;/script&gt;</h1>');
      expect(html).not.toContain('<script');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toMatch(/<code class="hljs language-js">/);
      expect(html).toContain('<span class="hljs-keyword">function</span>');
      expect(html).toContain('.hljs-keyword'); // the theme is inlined
      expect(html).toContain('Greets a person &amp; says hi.');
      expect(html).toContain('<li>&lt;b&gt;bold&lt;/b&gt;</li>');
      expect(html).toContain('href="https://example.com/a?b=1&amp;c=%222%22"');
      expect(html).toContain('>Example &lt;docs&gt;</a>');
      expect(html).not.toContain('<b>');
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
    });

    it('exports an unnamed, undescribed asset with a placeholder title', async () => {
      const { id: bare } = await create('x');
      const res = await http(server.baseUrl, 'GET', `/asset/${bare}/export?export_type=HTML`);
      expect(res.status).toBe(200);
      expectWire('ExportedAsset', res.json);
      expect(res.json.name).toBe('Untitled snippet');
      expect(res.json.description).toBe('');
    });

    it('rejects a missing or unknown type with 400; 404 / 410 for unknown / deleted assets', async () => {
      const gone = await deleted();
      expectError(await http(server.baseUrl, 'GET', `/asset/${id}/export`), 400, /export_type is required/);
      expectError(await http(server.baseUrl, 'GET', `/asset/${id}/export?export_type=PDF`), 400, /MD, HTML/);
      expectError(
        await http(server.baseUrl, 'GET', `/asset/${id}/export?export_type=MD&export_type=HTML`),
        400,
        /export_type/,
      );
      expectError(await http(server.baseUrl, 'GET', `/asset/${UNKNOWN}/export?export_type=MD`), 404);
      expectError(await http(server.baseUrl, 'GET', `/asset/${gone}/export?export_type=MD`), 410);
      expectError(await http(server.baseUrl, 'GET', `/asset/nope/export?export_type=MD`), 400, /UUID/);
    });
  });
});
