import {
  AnchorTypeEnum,
  AssetApi,
  AssetsApi,
  SeededWorkstreamSummary,
  SeededWorkstreamSummaryToJSON,
  WorkstreamSummariesApi,
  WorkstreamSummary,
  WorkstreamSummaryApi,
  WorkstreamSummaryFromJSON,
  WorkstreamSummaryToJSON,
} from '@pieces.app/pieces-os-client';
import { randomUUID } from 'node:crypto';
import { RawResponse, expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/**
 * Workstream summaries as memories (what an agent saves with `create_pieces_memory`): created
 * and read through the official SDK with everything they hold, searched, exported, streamed,
 * linked to assets, validated, deleted (410 afterwards). Runs on SQLite and on PostgreSQL.
 */
const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';
const TABLES = ['workstream_summaries', 'asset_workstream_summaries', 'stream_events'];
const at = new Date('2026-01-01T00:00:00.000Z');

const MODEL = {
  id: randomUUID(),
  version: '1',
  created: { value: at },
  name: 'agent',
  cloud: false,
  type: 'UNKNOWN',
  usage: 'UNKNOWN',
} as const;
const APPLICATION = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'VS_CODE',
  version: '1.90.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
} as const;

interface Memory {
  name: string;
  text: string;
  description?: string;
  project?: string;
  files?: string[];
  links?: string[];
  assets?: string[];
  application?: boolean;
}

/** A SeededWorkstreamSummary as an SDK client builds it. */
function seeded(m: Memory): SeededWorkstreamSummary {
  const stamp = { value: at };
  const anchor = (type: AnchorTypeEnum, fullpath: string) => {
    const id = randomUUID();
    const point = randomUUID();
    return {
      id,
      reference: {
        id,
        type,
        points: {
          iterable: [{ id: point, reference: { id: point, fullpath, created: stamp, updated: stamp, anchor: { id } } }],
        },
        created: stamp,
        updated: stamp,
      },
    };
  };
  return {
    name: m.name,
    model: MODEL,
    annotations: [
      { type: 'SUMMARY', text: m.text },
      ...(m.description ? [{ type: 'DESCRIPTION' as const, text: m.description }] : []),
    ],
    websites: {
      iterable: (m.links ?? []).map((url) => {
        const id = randomUUID();
        return { id, reference: { id, name: url, url, created: stamp, updated: stamp } };
      }),
    },
    anchors: {
      iterable: [
        ...(m.files ?? []).map((f) => anchor('FILE', f)),
        ...(m.project ? [anchor('DIRECTORY', m.project)] : []),
      ],
    },
    assets: { iterable: (m.assets ?? []).map((id) => ({ id })) },
    ...(m.application ? { applications: { iterable: [APPLICATION] } } : {}),
  } as SeededWorkstreamSummary;
}

/** What a WorkstreamSummary read through the SDK holds, in the terms it was saved with. */
function contentOf(s: WorkstreamSummary) {
  const annotations = s.annotations!.iterable.map((a) => a.reference!);
  const anchors = s.anchors!.iterable.map((a) => a.reference!);
  const paths = (type: string) =>
    anchors.filter((a) => a.type === type).flatMap((a) => a.points.iterable.map((p) => p.reference!.fullpath));
  return {
    name: s.name,
    text: annotations.find((a) => a.type === 'SUMMARY')?.text,
    description: annotations.find((a) => a.type === 'DESCRIPTION')?.text,
    project: paths('DIRECTORY')[0],
    files: paths('FILE'),
    links: s.websites!.iterable.map((w) => w.reference!.url),
    assets: s.assets!.iterable!.map((a) => a.id),
    source: s.sources!.iterable.map((x) => x.reference!.raw.application)[0],
  };
}

const TEXT = [
  '## Decision',
  '',
  'We moved the **payment reconciliation** job from cron to the queue worker, because the nightly run overlapped with backups.',
  '',
  '- retries: 3, with exponential backoff',
  '- idempotency key: the ledger entry id',
].join('\n');

describe('workstream summaries as memories', () => {
  let server: TestServer;
  let summaries: WorkstreamSummariesApi;
  let summary: WorkstreamSummaryApi;
  let assets: AssetsApi;
  let asset: AssetApi;
  const get = (path: string) => http(server.baseUrl, 'GET', path);
  const post = (path: string, body?: unknown) => http(server.baseUrl, 'POST', path, body);
  const search = (query: string, extra: Record<string, unknown> = {}) =>
    post('/workstream_summaries/search', { engines: { iterable: [{ query, ...extra }] } });
  const searchIds = async (query: string): Promise<string[]> => {
    const res = await search(query);
    expect(res.status).toBe(200);
    return res.json.iterable.map((h: { identifier: string }) => h.identifier);
  };
  let assetId: string;
  let memory: WorkstreamSummary;
  const saved: Memory = {
    name: 'Payment reconciliation moved to the queue',
    text: TEXT,
    description: 'Why the reconciliation job runs on the worker now',
    project: '/home/dev/ledgerly',
    files: ['src/jobs/reconcile_payments.ts', 'config/queue.yml'],
    links: ['https://github.com/acme/ledgerly/pull/42', 'https://docs.example.org/queues?tab=retries'],
    application: true,
  };

  beforeAll(async () => {
    server = await startTestServer();
    summaries = new WorkstreamSummariesApi(server.sdk);
    summary = new WorkstreamSummaryApi(server.sdk);
    assets = new AssetsApi(server.sdk);
    asset = new AssetApi(server.sdk);
    assetId = (
      await assets.assetsCreateNewAsset({
        seed: textSeed('export async function reconcilePayments(ledger: Ledger) {}'),
      })
    ).id;
    memory = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
      seededWorkstreamSummary: seeded({ ...saved, assets: [assetId] }),
    });
  });
  afterAll(() => server.close());

  describe('create and read', () => {
    it('creates through the SDK and answers the summary with everything it holds', () => {
      expect(memory.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(memory.created.value).toBeInstanceOf(Date);
      expect(contentOf(memory)).toEqual({
        name: saved.name,
        text: saved.text,
        description: saved.description,
        project: saved.project,
        files: saved.files,
        links: saved.links,
        assets: [assetId],
        source: 'VS_CODE',
      });
    });

    it('reads it back through the SDK, every field, and the raw JSON survives WorkstreamSummaryFromJSON without loss', async () => {
      const read = await summary.workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: memory.id });
      expect(contentOf(read)).toEqual(contentOf(memory));
      expect(read.model.name).toBe('Trove');
      const raw = await get(`/workstream_summary/${memory.id}`);
      expect(raw.status).toBe(200);
      expectWire('FullWorkstreamSummary', raw.json);
      expect(JSON.parse(JSON.stringify(WorkstreamSummaryToJSON(WorkstreamSummaryFromJSON(raw.json))))).toEqual(
        raw.json,
      );
      const anchors = raw.json.anchors.iterable.map((a: any) => [a.reference.type, a.reference.name]);
      expect(anchors).toEqual([
        ['FILE', 'reconcile_payments.ts'],
        ['FILE', 'queue.yml'],
        ['DIRECTORY', 'ledgerly'],
      ]);
      expect(raw.json.annotations.iterable[0].reference.summary).toEqual({ id: memory.id });
      // Derived parts keep their ids from read to read.
      expect((await get(`/workstream_summary/${memory.id}`)).json).toEqual(raw.json);
    });

    it('lists it in the snapshot, most recent first', async () => {
      const second = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: seeded({ name: 'Second', text: 'later' }),
      });
      const snapshot = await summaries.workstreamSummariesSnapshot();
      expect(snapshot.iterable.map((s) => s.id).slice(0, 2)).toEqual([second.id, memory.id]);
      const raw = await get('/workstream_summaries');
      expectWire('WorkstreamSummaries', raw.json);
      expect(contentOf(second)).toEqual(
        expect.objectContaining({ name: 'Second', text: 'later', files: [], links: [], assets: [], source: undefined }),
      );
    });

    it('accepts raw JSON as the CLI would send it (snake case, no optional parts) and 404s unknown ids', async () => {
      const res = await post('/workstream_summaries/create', {
        name: '  Minimal  ',
        model: MODEL,
        annotations: [{ type: 'SUMMARY', text: 'just text' }],
      });
      expect(res.status).toBe(200);
      expect(res.json.name).toBe('Minimal');
      expect(res.json.annotations.iterable.map((a: any) => a.reference.type)).toEqual(['SUMMARY']);
      expectError(await get(`/workstream_summary/${UNKNOWN}`), 404);
      expectError(await get('/workstream_summary/not-a-uuid'), 400);
    });
  });

  describe('linked assets', () => {
    it('the linked asset shows the summary (a reference: id, name, times, model)', async () => {
      const a = await asset.assetSnapshot({ asset: assetId });
      expect(a.summaries?.iterable.map((s) => [s.id, s.name])).toEqual([[memory.id, saved.name]]);
      const raw = await get(`/asset/${assetId}`);
      expectWire('Asset', raw.json);
    });

    it('associating and disassociating through the asset routes shows on the summary', async () => {
      const other = (await assets.assetsCreateNewAsset({ seed: textSeed('SELECT 1;') })).id;
      await asset.assetAssociateWorkstreamSummary({ asset: other, workstreamSummary: memory.id });
      expect(
        contentOf(await summary.workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: memory.id }))
          .assets,
      ).toEqual([assetId, other]);
      await asset.assetDisassociateWorkstreamSummary({ asset: other, workstreamSummary: memory.id });
      expect(
        contentOf(await summary.workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: memory.id }))
          .assets,
      ).toEqual([assetId]);
      // A deleted asset loses the link.
      await asset.assetAssociateWorkstreamSummary({ asset: other, workstreamSummary: memory.id });
      await assets.assetsDeleteAsset({ asset: other });
      expect(
        contentOf(await summary.workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: memory.id }))
          .assets,
      ).toEqual([assetId]);
    });
  });

  describe('search', () => {
    it('finds it by words of its name, description, text, project, files and links, through the SDK', async () => {
      const hits = await summaries.searchWorkstreamSummaries({
        searchInput: { engines: { iterable: [{ query: 'reconciliation' }] } },
      });
      expect(hits.iterable[0].identifier).toBe(memory.id);
      expect(hits.iterable[0].similarity).toBe(1);
      expect(hits.iterable[0].summary && contentOf(hits.iterable[0].summary).text).toBe(TEXT);
      for (const query of [
        'reconciliation',
        'worker',
        'backoff',
        'ledgerly',
        'reconcile_payments',
        'queue.yml',
        'github',
        'retries',
        'exponential',
      ]) {
        expect(await searchIds(query)).toContain(memory.id);
      }
      expect(await searchIds('reconcil')).toContain(memory.id); // a prefix
      expect(await searchIds('zebra unicorn')).toEqual([]);
      const raw = await search('payment reconciliation');
      expectWire('SearchedWorkstreamSummaries', raw.json);
      expect(raw.json.iterable[0]).toEqual(expect.objectContaining({ identifier: memory.id, exact: true }));
    });

    it('ranks a match in the name above a match in the text only, every score in (0, 1]', async () => {
      const inText = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: seeded({
          name: 'Unrelated notes',
          text: 'We talked about the flamingo migration once.',
        }),
      });
      const inName = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: seeded({ name: 'Flamingo rollout', text: 'Rolled out behind a flag.' }),
      });
      const res = await search('flamingo');
      expect(res.json.iterable.map((h: any) => h.identifier)).toEqual([inName.id, inText.id]);
      for (const hit of res.json.iterable) expect(hit.similarity > 0 && hit.similarity <= 1).toBe(true);
      // full_text.exact keeps the hits holding the whole query as it is.
      const exact = await search('flamingo migration', { full_text: { exact: true } });
      expect(exact.json.iterable.map((h: any) => h.identifier)).toEqual([inText.id]);
    });

    it('odd queries answer 200 (never a 5xx), no word finds nothing', async () => {
      const odd = [
        '"',
        '*',
        '-',
        'NEAR(',
        ':',
        "'",
        '""',
        'a"b',
        'OR',
        'AND NOT',
        '(',
        ')',
        '^',
        '\\',
        '&|!',
        "'; DROP TABLE workstream_summaries; --",
      ];
      odd.push(
        'reconciliation"',
        'NEAR(reconciliation worker)',
        'reconciliation*',
        '-reconciliation',
        'name:reconciliation',
        "it's",
        'é',
        '💥',
        '',
      );
      for (const query of odd) {
        const res = await search(query);
        expect([query, res.status]).toEqual([query, 200]);
      }
      for (const query of ['"', '*', '-', ':', "'", '', '   ', '💥']) expect(await searchIds(query)).toEqual([]);
      expect((await search('\ud800')).status).toBe(400); // a lone surrogate is no text (refused before any search)
      expect(await searchIds('NEAR(reconciliation worker)')).toContain(memory.id);
      expect(await searchIds('name:reconciliation')).toContain(memory.id);
      expect((await post('/workstream_summaries/search', {})).status).toBe(400);
      expect(
        (await post('/workstream_summaries/search', { engines: { iterable: [{ query: 'x'.repeat(1001) }] } })).status,
      ).toBe(400);
    });

    it('searches the queries of nested operations too', async () => {
      const res = await post('/workstream_summaries/search', {
        engines: { iterable: [{ operations: { iterable: [{ query: 'backoff' }] } }] },
      });
      expect(res.json.iterable.map((h: any) => h.identifier)).toContain(memory.id);
    });
  });

  describe('export', () => {
    it('answers Markdown: title, description, project, files, links and the text', async () => {
      const res = await get(`/workstream_summary/${memory.id}/export`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
      const md = res.text;
      expect(md.startsWith(`# ${saved.name}\n`)).toBe(true);
      for (const part of [
        saved.description!,
        '`/home/dev/ledgerly`',
        '`src/jobs/reconcile_payments.ts`',
        '`config/queue.yml`',
        `<${saved.links![0]}>`,
        '**Saved by:** VS\\_CODE',
        TEXT,
      ]) {
        expect(md).toContain(part);
      }
      expect(md.indexOf('## Files')).toBeLessThan(md.indexOf('## Links'));
      expect(md.indexOf('## Links')).toBeLessThan(md.indexOf(TEXT));
      expectError(await get(`/workstream_summary/${UNKNOWN}/export`), 404);
    });
  });

  describe('invalid input: 400 with a JSON body, nothing stored', () => {
    const base = () => ({ name: 'Valid', model: MODEL, annotations: [{ type: 'SUMMARY', text: 'text' }] });
    const cases: Array<[string, () => unknown, RegExp]> = [
      ['no name', () => ({ ...base(), name: undefined }), /name/],
      ['an empty name', () => ({ ...base(), name: '   ' }), /name must not be empty/],
      ['a name over 200 characters', () => ({ ...base(), name: 'n'.repeat(201) }), /name must be at most 200/],
      [
        'no SUMMARY annotation',
        () => ({ ...base(), annotations: [{ type: 'DESCRIPTION', text: 'only a description' }] }),
        /SUMMARY/,
      ],
      [
        'an empty text',
        () => ({ ...base(), annotations: [{ type: 'SUMMARY', text: ' \n ' }] }),
        /text must not be empty/,
      ],
      [
        'a text over 100,000 characters',
        () => ({ ...base(), annotations: [{ type: 'SUMMARY', text: 'x'.repeat(100_001) }] }),
        /text/,
      ],
      [
        'a description over 2,000 characters',
        () => ({ ...base(), annotations: [...base().annotations, { type: 'DESCRIPTION', text: 'd'.repeat(2001) }] }),
        /description/,
      ],
      [
        'an annotation of another type',
        () => ({ ...base(), annotations: [...base().annotations, { type: 'COMMENT', text: 'c' }] }),
        /COMMENT/,
      ],
      ['a NUL in the text', () => ({ ...base(), annotations: [{ type: 'SUMMARY', text: 'a\u0000b' }] }), /NUL/],
      ['a NUL in the name', () => ({ ...base(), name: 'a\u0000b' }), /NUL/],
      ['a link that is not http(s)', () => ({ ...seededJson({ links: ['ftp://example.org/x'] }) }), /http\(s\)/],
      ['a link that is not a URL', () => ({ ...seededJson({ links: ['not a url'] }) }), /links\[0\]/],
      ['a javascript: link', () => ({ ...seededJson({ links: ['javascript:alert(1)'] }) }), /http\(s\)/],
      [
        'more than 100 files',
        () => seededJson({ files: Array.from({ length: 101 }, (_, i) => `f${i}.ts`) }),
        /at most 100/,
      ],
      ['a file path over 1,024 characters', () => seededJson({ files: ['p'.repeat(1025)] }), /files\[0\]/],
      ['a project over 200 characters', () => seededJson({ project: '/'.repeat(201) }), /project/],
      [
        'two projects',
        () => ({
          ...seededJson({ project: '/a' }),
          anchors: {
            iterable: [
              ...seededJson({ project: '/a' }).anchors.iterable,
              ...seededJson({ project: '/b' }).anchors.iterable,
            ],
          },
        }),
        /DIRECTORY/,
      ],
      ['a website without its reference', () => ({ ...base(), websites: { iterable: [{ id: 'w' }] } }), /reference/],
      ['an anchor without points', () => ({ ...base(), anchors: { iterable: [{ id: 'a' }] } }), /points/],
      ['an asset id that is not a UUID', () => ({ ...base(), assets: { iterable: [{ id: 'nope' }] } }), /id/],
      ['an unknown field', () => ({ ...base(), colour: 'red' }), /colour/],
      ['a wrong type', () => ({ ...base(), name: 42 }), /name/],
    ];
    /** The JSON an SDK client sends for a memory. */
    const seededJson = (m: Partial<Memory>): any =>
      JSON.parse(JSON.stringify(SeededWorkstreamSummaryToJSON(seeded({ name: 'Valid', text: 'text', ...m }))));

    it.each(cases)('%s', async (_name, body, message) => {
      const before = await server.counts(TABLES);
      const res = await post('/workstream_summaries/create', body());
      expectError(res, 400, message);
      expect(await server.counts(TABLES)).toBe(before);
    });

    it('an unknown or deleted asset: 404, nothing stored', async () => {
      const deleted = (await assets.assetsCreateNewAsset({ seed: textSeed('gone()') })).id;
      await assets.assetsDeleteAsset({ asset: deleted });
      for (const id of [UNKNOWN, deleted]) {
        const before = await server.counts(TABLES);
        expectError(
          await post('/workstream_summaries/create', { ...base(), assets: { iterable: [{ id: assetId }, { id }] } }),
          404,
          new RegExp(id),
        );
        expect(await server.counts(TABLES)).toBe(before);
      }
    });

    it('the SDK gets the 400 too', async () => {
      expect(
        await statusOf(
          summaries.workstreamSummariesCreateNewWorkstreamSummary({
            seededWorkstreamSummary: seeded({ name: 'x', text: '' }),
          }),
        ),
      ).toBe(400);
    });
  });

  describe('delete', () => {
    it('answers 204, then 410 on every read; gone from the snapshot, search and the asset; 410 again and for linking', async () => {
      const linked = (await assets.assetsCreateNewAsset({ seed: textSeed('def linked(): pass') })).id;
      const doomed = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: seeded({
          name: 'Doomed capybara notes',
          text: 'capybara',
          assets: [linked],
          links: ['https://capybara.example'],
        }),
      });
      expect((await asset.assetSnapshot({ asset: linked })).summaries?.iterable.map((s) => s.id)).toEqual([doomed.id]);
      const res: RawResponse = await post(`/workstream_summaries/${doomed.id}/delete`);
      expect(res.status).toBe(204);
      expectError(await get(`/workstream_summary/${doomed.id}`), 410);
      expectError(await get(`/workstream_summary/${doomed.id}/export`), 410);
      expect(
        await statusOf(summary.workstreamSummariesSpecificWorkstreamSummarySnapshot({ workstreamSummary: doomed.id })),
      ).toBe(410);
      expectError(await post(`/workstream_summaries/${doomed.id}/delete`), 410);
      expectError(await post(`/workstream_summaries/${UNKNOWN}/delete`), 404);
      expect((await summaries.workstreamSummariesSnapshot()).iterable.map((s) => s.id)).not.toContain(doomed.id);
      expect(await searchIds('capybara')).toEqual([]);
      expect((await asset.assetSnapshot({ asset: linked })).summaries?.iterable).toEqual([]);
      expect(
        await statusOf(asset.assetAssociateWorkstreamSummary({ asset: linked, workstreamSummary: doomed.id })),
      ).toBe(410);
      // The tombstone keeps nothing of what was saved.
      const [row] = await server.sql<any>(
        `SELECT name, text, links, deleted_at FROM workstream_summaries WHERE id = '${doomed.id}'`,
      );
      expect(row).toEqual(expect.objectContaining({ name: '', text: '', links: '[]', deleted_at: expect.any(String) }));
    });

    it("removes conversations' links to a deleted summary", async () => {
      const doomed = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
        seededWorkstreamSummary: seeded({ name: 'Linked from a chat', text: 'chat' }),
      });
      const conversation = (await post('/conversations/create', { type: 'COPILOT', name: 'Chat about the summary' }))
        .json.id as string;
      expect((await post(`/conversation/${conversation}/workstream_summaries/associate/${doomed.id}`)).status).toBe(
        204,
      );
      const linked = async () =>
        (await get(`/conversation/${conversation}`)).json.summaries.iterable.map((s: { id: string }) => s.id);
      expect(await linked()).toEqual([doomed.id]);
      expect((await post(`/workstream_summaries/${doomed.id}/delete`)).status).toBe(204);
      for (let i = 0; i < 50 && (await linked()).length; i++) await new Promise((r) => setTimeout(r, 20)); // removed after the commit
      expect(await linked()).toEqual([]);
      expect(
        await server.sql(
          `SELECT * FROM conversation_workstream_summaries WHERE workstream_summary_id = '${doomed.id}'`,
        ),
      ).toEqual([]);
    });
  });

  describe('identifiers stream', () => {
    it('sends the live ids first, then announces a create and a delete', async () => {
      const client = await StreamClient.open(server.baseUrl, '/workstream_summaries/stream/identifiers');
      try {
        const first = await client.next();
        const listed = (await summaries.workstreamSummariesSnapshot()).iterable.map((s) => s.id);
        expect(first.iterable.map((i: any) => i.workstream_summary.id)).toEqual(listed);
        const created = await summaries.workstreamSummariesCreateNewWorkstreamSummary({
          seededWorkstreamSummary: seeded({ name: 'Streamed', text: 'streamed' }),
        });
        expect(await client.next()).toEqual({ iterable: [{ workstream_summary: { id: created.id } }] });
        await summaries.workstreamSummariesDeleteSpecificWorkstreamSummary({ workstreamSummary: created.id });
        expect(await client.next()).toEqual({ iterable: [{ workstream_summary: { id: created.id }, deleted: true }] });
        // Linking through an asset changes the summary's assets: announced too.
        await asset.assetAssociateWorkstreamSummary({ asset: assetId, workstreamSummary: listed[0] });
        expect(await client.next()).toEqual({ iterable: [{ workstream_summary: { id: listed[0] } }] });
        await client.quiet();
      } finally {
        client.socket.terminate();
      }
    });

    it('the asset stream announces the assets a new summary links', async () => {
      const client = await StreamClient.open(server.baseUrl, '/assets/stream/identifiers');
      try {
        await client.next();
        await summaries.workstreamSummariesCreateNewWorkstreamSummary({
          seededWorkstreamSummary: seeded({ name: 'Links', text: 'links', assets: [assetId] }),
        });
        expect(await client.next()).toEqual({ iterable: [{ asset: { id: assetId } }] });
      } finally {
        client.socket.terminate();
      }
    });
  });
});
