import {
  AssetApi,
  AssetsApi,
  ConnectorApi,
  ConversationApi,
  ConversationsApi,
  WorkstreamSummariesApi,
} from '@pieces.app/pieces-os-client';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { RecordAssetActivityHandler } from '../../src/modules/assets/events/asset-activity.event';
import { MarkdownExport } from '../../src/modules/transfer/markdown-export.service';
import { StoreExport } from '../../src/modules/transfer/store-export.service';
import { StoreImport } from '../../src/modules/transfer/store-import.service';
import { expectError, http } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer, testDatabaseUrl } from './support/server';

const FIXTURES = join(__dirname, 'fixtures', 'transfer');
const NDJSON = { 'content-type': 'application/x-ndjson' };
const OCTETS = { 'content-type': 'application/octet-stream' };

/** Every kind of record an export carries (docs/TRANSFER.md). */
const KINDS = [
  'application',
  'model',
  'tag',
  'website',
  'workstream_summary',
  'anchor',
  'range',
  'asset',
  'format',
  'annotation',
  'asset_tag',
  'asset_website',
  'asset_workstream_summary',
  'asset_enrichment',
  'conversation',
  'conversation_message',
  'conversation_annotation',
  'conversation_asset',
  'conversation_website',
  'conversation_anchor',
  'conversation_workstream_summary',
  'conversation_grounding_range',
  'conversation_grounding_message',
  'activity',
  'connector_intention',
  'connector_event',
];

interface Parsed {
  header: any;
  records: Array<{ kind: string; record: Record<string, unknown> }>;
  end: any;
  lines: string[];
}

function parse(text: string): Parsed {
  const lines = text.split('\n').filter((l) => l !== '');
  return {
    header: JSON.parse(lines[0]),
    records: lines.slice(1, -1).map((l) => JSON.parse(l)),
    end: JSON.parse(lines[lines.length - 1]),
    lines,
  };
}

/** An export file made by hand: header, records, end line with its counts and SHA-256. */
function ndjson(records: Array<{ kind: string; record: Record<string, unknown> }>): string {
  const lines = records.map((r) => JSON.stringify(r));
  const counts: Record<string, number> = {};
  for (const r of records) counts[r.kind] = (counts[r.kind] ?? 0) + 1;
  const sha256 = createHash('sha256')
    .update(lines.map((l) => `${l}\n`).join(''))
    .digest('hex');
  const header = { format: 'trove-export', version: 1, exported: new Date().toISOString(), trove: 'test', counts };
  return (
    [
      JSON.stringify(header),
      ...lines,
      JSON.stringify({ kind: 'end', records: lines.length, counts, sha256, checksum: '' }),
    ].join('\n') + '\n'
  );
}

/** `n` generated assets (with a format and a tag each), credited to `applicationId`. */
function generatedAssets(
  n: number,
  applicationId: string,
  word: string,
  padding = 40,
): Array<{ kind: string; record: Record<string, unknown> }> {
  const now = '2025-01-01T00:00:00.000Z';
  const tagId = randomUUID();
  const out: Array<{ kind: string; record: Record<string, unknown> }> = [
    {
      kind: 'tag',
      record: {
        id: tagId,
        text: `${word}-tag`,
        category: 'UNKNOWN',
        mechanism: 'MANUAL',
        created_at: now,
        updated_at: now,
      },
    },
  ];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const raw = `function ${word}${i}(value) {\n  // ${'padding '.repeat(padding)}\n  return value * ${i};\n}\n`;
    out.push({
      kind: 'asset',
      record: { id, name: `${word} ${i}`, creator: 'u', mechanism: 'MANUAL', created_at: now, updated_at: now },
    });
    out.push({
      kind: 'format',
      record: {
        id: randomUUID(),
        asset_id: id,
        role: 'BOTH',
        generic: 'CODE',
        specific: 'js',
        application_id: applicationId,
        creator: 'u',
        raw,
        bytes: Buffer.byteLength(raw),
        created_at: now,
        updated_at: now,
      },
    });
    out.push({ kind: 'asset_tag', record: { asset_id: id, tag_id: tagId, created_at: now } });
  }
  return out;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = async (server: TestServer, table: string, where = ''): Promise<number> =>
  Number((await server.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where}` : ''}`))[0].n);

/**
 * A read with every Application's id replaced by its identity: an application is matched by name,
 * version and platform on import (Trove's own is recorded by every store under an id of its own).
 */
function sameApplications<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sameApplications) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = sameApplications(v);
  if (
    typeof out.id === 'string' &&
    typeof out.name === 'string' &&
    typeof out.platform === 'string' &&
    typeof out.version === 'string' &&
    'privacy' in out
  ) {
    out.id = `${out.name}|${out.version}|${out.platform}`;
  }
  return out as T;
}

/** GET JSON, checking the status. */
async function getJson(server: TestServer, path: string): Promise<any> {
  const res = await http(server.baseUrl, 'GET', path);
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.json;
}

/** Search hits' asset ids for a query. */
async function searchIds(server: TestServer, query: string): Promise<string[]> {
  const json = await getJson(server, `/assets/search?query=${encodeURIComponent(query)}&transferables=false`);
  return json.iterable.map((hit: any) => hit.identifier ?? hit.asset?.id);
}

describe('whole-store export and import', () => {
  let source: TestServer;
  let target: TestServer;
  let exported: string;
  let parsed: Parsed;
  let assetIds: string[];

  beforeAll(async () => {
    [source, target] = await Promise.all([startTestServer(), startTestServer()]);
    const sdk = source.sdk;
    const assets = new AssetsApi(sdk);
    const asset = new AssetApi(sdk);
    const connector = new ConnectorApi(sdk);
    const conversations = new ConversationsApi(sdk);
    const conversation = new ConversationApi(sdk);

    // Assets: with tags, websites, annotations; one saved bare (enrichment); one deleted (tombstone).
    const created = [
      await assets.assetsCreateNewAsset({
        seed: textSeed('def add(a, b):\n    return a + b\n', {
          name: 'add numbers',
          tags: [{ text: 'python' }, { text: 'math' }],
          websites: [{ url: 'https://docs.python.org/3/', name: 'Python docs' }],
          annotations: [
            { type: 'DESCRIPTION', text: 'Adds two numbers.' },
            { type: 'COMMENT', text: 'keep it simple' },
          ],
        }),
      }),
      await assets.assetsCreateNewAsset({
        seed: textSeed('SELECT id, email FROM users WHERE active ORDER BY created_at DESC LIMIT 20;', {
          name: 'recent active users',
          tags: [{ text: 'sql' }, { text: 'math' }],
        }),
      }),
      await assets.assetsCreateNewAsset({
        seed: textSeed('export const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));\n'),
      }),
      await assets.assetsCreateNewAsset({ seed: textSeed('echo "to be deleted"', { name: 'doomed' }) }),
    ];
    // Saved without an application: credited to Trove itself, which every store records under an id of its own.
    const bare = await http(source.baseUrl, 'POST', '/assets/create', {
      asset: {
        format: { fragment: { string: { raw: 'fn main() { println!("credited to trove"); }' } } },
        metadata: { name: 'no application' },
      },
    });
    expect(bare.status).toBe(200);
    created.push(bare.json);
    assetIds = created.map((a) => a.id);
    await assets.assetsDeleteAsset({ asset: assetIds[3] });
    await asset.assetUpdate({ asset: { ...created[0], favorited: true } as any }).catch(() => undefined);

    // A memory linked to an asset.
    const summary = await new WorkstreamSummariesApi(sdk).workstreamSummariesCreateNewWorkstreamSummary({
      seededWorkstreamSummary: {
        name: 'Moved the reconciliation job',
        model: {
          id: randomUUID(),
          version: '1',
          created: { value: new Date() },
          name: 'agent',
          cloud: false,
          type: 'UNKNOWN',
          usage: 'UNKNOWN',
        },
        annotations: [{ type: 'SUMMARY', text: 'The nightly job now runs on the queue worker.' }],
        assets: { iterable: [{ id: assetIds[0] }] },
      } as any,
    });

    // Conversations with messages, annotations, links, anchors, grounding (a range; a message of the other).
    const chat = await conversations.conversationsCreateSpecificConversation({
      transferables: true,
      seededConversation: {
        type: 'COPILOT',
        name: 'About add',
        messages: [
          { role: 'USER', fragment: { string: { raw: 'What does add do?' } } },
          { role: 'ASSISTANT', fragment: { string: { raw: 'It adds.' } } },
        ],
        annotations: [{ type: 'COMMENT', text: 'a note' }],
        assets: { iterable: [{ id: assetIds[0] }] },
        anchors: [{ type: 'FILE', fullpath: '/home/me/project/add.py' }],
      } as any,
    });
    const other = await conversations.conversationsCreateSpecificConversation({
      transferables: true,
      seededConversation: {
        type: 'COPILOT',
        name: 'Other',
        messages: [{ role: 'USER', fragment: { string: { raw: 'ground me' } } }],
      } as any,
    });
    const websiteId = (await source.sql<{ id: string }>(`SELECT id FROM websites`))[0].id;
    await conversation.conversationAssociateWebsite({ conversation: chat.id, website: websiteId });
    await conversation.conversationAssociateWorkstreamSummary({ conversation: chat.id, workstreamSummary: summary.id });
    await conversation.conversationGroundingMessagesAssociateMessage({
      conversation: chat.id,
      message: other.messages!.iterable[0].id,
    });
    const rangeId = randomUUID();
    const now = new Date().toISOString();
    await source.sql(
      `INSERT INTO ranges (id, from_at, to_at, continuous, created_at, updated_at) VALUES ('${rangeId}', '${now}', NULL, true, '${now}', '${now}')`,
    );
    await conversation.conversationAssociateGroundingTemporalRangeWorkstream({ conversation: chat.id, range: rangeId });

    // A custom model; the connector: a connected application, an intention, tracked events.
    expect(
      (
        await http(source.baseUrl, 'POST', '/models/create', {
          name: 'Quoter',
          version: '1',
          cloud: false,
          configuration: { base: 'offline' },
        })
      ).status,
    ).toBe(200);
    const context = await connector.connect({
      seededConnectorConnection: { application: { name: 'VS_CODE', version: '1.90.0', platform: 'LINUX' } } as never,
    });
    await connector.intention({
      application: context.application.id,
      seededConnectorAsset: { format: { fragment: { string: { raw: 'const a = 1;' } } } } as never,
    });
    await http(source.baseUrl, 'POST', `/${context.application.id}/track`, {
      asset: { asset: { id: assetIds[1] }, identifier_description_pair: { asset_referenced: 'referenced' } },
      interaction: { description: 'clicked save' },
    });
    // Activities are written after their change, in batches: what is waiting is written now (a
    // batch still waiting for its timer when the export runs was missing from the export on a
    // loaded machine), and the store is then settled.
    await waitFor(
      () => count(source, 'activities'),
      (n) => n >= 3,
    );
    await source.app.get(RecordAssetActivityHandler).flush();
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('exports every kind of record over HTTP: a header, one line per record, an end line with counts and SHA-256', async () => {
    const res = await http(source.baseUrl, 'GET', '/trove/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="trove-export-.*\.ndjson"$/);
    exported = res.text;
    parsed = parse(exported);
    expect(parsed.header).toEqual(
      expect.objectContaining({ format: 'trove-export', version: 1, exported: expect.any(String) }),
    );
    expect(parsed.end.kind).toBe('end');
    const counted: Record<string, number> = {};
    for (const r of parsed.records) counted[r.kind] = (counted[r.kind] ?? 0) + 1;
    expect(Object.keys(counted).sort()).toEqual([...KINDS].sort());
    expect(parsed.end.counts).toEqual(expect.objectContaining(counted));
    expect(parsed.header.counts).toEqual(parsed.end.counts);
    expect(parsed.end.records).toBe(parsed.records.length);
    const sha = createHash('sha256')
      .update(
        parsed.lines
          .slice(1, -1)
          .map((l) => `${l}\n`)
          .join(''),
      )
      .digest('hex');
    expect(parsed.end.sha256).toBe(sha);
    // Records are wire-agnostic rows: snake_case columns, booleans as booleans, the deleted asset as its tombstone.
    const assets = parsed.records.filter((r) => r.kind === 'asset').map((r) => r.record);
    expect(assets.find((a) => a.id === assetIds[3])).toEqual(
      expect.objectContaining({ deleted_at: expect.any(String), name: null }),
    );
    expect(assets[0]).toEqual(
      expect.objectContaining({
        favorited: expect.any(Boolean),
        score_manual: expect.any(Number),
        created_at: expect.any(String),
      }),
    );
    // Each asset is followed by its own records.
    const firstFormat = parsed.records.findIndex((r) => r.kind === 'format');
    expect(parsed.records[firstFormat - 1].kind).toBe('asset');
    expect(parsed.records[firstFormat].record.asset_id).toBe(parsed.records[firstFormat - 1].record.id);
    // The store's checksum is the end line's.
    expect(await source.app.get(StoreExport).checksum()).toBe(parsed.end.checksum);
  });

  it('imports into a fresh store: the same records of every kind (counts and checksum), and the same reads through the SDK', async () => {
    const res = await http(target.baseUrl, 'POST', '/trove/import', exported, NDJSON);
    expect(res.status).toBe(200);
    expect(res.json.format).toBe('ndjson');
    expect(res.json.records).toBe(parsed.records.length);
    for (const kind of KINDS) {
      // The fresh store's own record of Trove is the application the export's is matched to.
      expect({ kind, created: res.json.created[kind] ?? 0, skipped: res.json.skipped[kind] ?? 0 }).toEqual({
        kind,
        created: kind === 'application' ? parsed.end.counts[kind] - 1 : parsed.end.counts[kind],
        skipped: kind === 'application' ? 1 : 0,
      });
    }
    const transfer = (server: TestServer) => server.app.get(StoreExport);
    expect(await transfer(target).counts()).toEqual(await transfer(source).counts());
    expect(await transfer(target).checksum()).toBe(parsed.end.checksum);

    const read = async (server: TestServer) => {
      const assets = await new AssetsApi(server.sdk).assetsSnapshot({ transferables: true });
      const conversations = await new ConversationsApi(server.sdk).conversationsSnapshot({ transferables: true });
      const summaries = await new WorkstreamSummariesApi(server.sdk).workstreamSummariesSnapshot();
      const messages = await new ConversationApi(server.sdk).conversationSpecificConversationMessages({
        conversation: conversations.iterable[0].id,
      });
      const models = (await getJson(server, '/models')).iterable.filter((m: any) => m.custom);
      const deleted = await http(server.baseUrl, 'GET', `/asset/${assetIds[3]}`);
      return JSON.parse(
        JSON.stringify({ assets, conversations, summaries, messages, models, deleted: deleted.status }),
      );
    };
    const [before, after] = [sameApplications(await read(source)), sameApplications(await read(target))];
    expect(after.assets.iterable.length).toBe(4);
    expect(after.deleted).toBe(410);
    expect(after).toEqual(before);
  });

  it('imported assets are searchable', async () => {
    expect(await searchIds(target, 'recent active users')).toContain(assetIds[1]);
    expect(await searchIds(target, 'clamp')).toContain(assetIds[2]);
  });

  it('importing the same export again creates nothing', async () => {
    const counts = await target.app.get(StoreExport).counts();
    const res = await http(target.baseUrl, 'POST', '/trove/import', exported, NDJSON);
    expect(res.status).toBe(200);
    expect(Object.values(res.json.created).every((n) => n === 0)).toBe(true);
    expect(Object.values(res.json.skipped).reduce((a: number, b) => a + (b as number), 0)).toBe(parsed.records.length);
    expect(await target.app.get(StoreExport).counts()).toEqual(counts);
    expect(await target.app.get(StoreExport).checksum()).toBe(parsed.end.checksum);
  });

  it('the service API imports a file stream and any stream, reporting progress', async () => {
    const fresh = await startTestServer();
    try {
      const dir = mkdtempSync(join(tmpdir(), 'trove-transfer-'));
      const file = join(dir, 'export.ndjson');
      writeFileSync(file, exported);
      const progress: Array<[number, number | null]> = [];
      const first = await fresh.app
        .get(StoreImport)
        .importNdjson(createReadStream(file), (done, total) => progress.push([done, total]));
      expect(first.created.asset).toBe(parsed.end.counts.asset);
      expect(progress[progress.length - 1]).toEqual([parsed.records.length, parsed.records.length]);
      const again = await fresh.app.get(StoreImport).importNdjson(Readable.from([Buffer.from(exported)]));
      expect(again.created.asset ?? 0).toBe(0);
      expect(await fresh.app.get(StoreExport).checksum()).toBe(parsed.end.checksum);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      await fresh.close();
    }
  });
});

describe('refusing a bad import', () => {
  let server: TestServer;
  let valid: string;
  let tables: string[];

  beforeAll(async () => {
    server = await startTestServer({ TROVE_IMPORT_LIMIT: String(64 * 1024) });
    const applicationId = (await server.sql<{ id: string }>(`SELECT id FROM applications`))[0].id;
    valid = ndjson(generatedAssets(40, applicationId, 'zebrafinch'));
    tables = ['assets', 'formats', 'tags', 'asset_tags', 'stream_events'];
  });
  afterAll(() => server?.close());

  const refused = async (
    body: string | Buffer,
    status: number,
    message: RegExp,
    headers: Record<string, string> = NDJSON,
    query = '',
  ) => {
    const before = await server.counts(tables);
    const res = await http(server.baseUrl, 'POST', `/trove/import${query}`, body, headers);
    expectError(res, status, message);
    expect(await server.counts(tables)).toBe(before);
    // Reads still work.
    expect((await http(server.baseUrl, 'GET', '/assets')).status).toBe(200);
  };

  it('a truncated export: 400 saying how far it got, nothing written', async () => {
    const lines = valid.split('\n');
    await refused(
      lines.slice(0, 50).join('\n') + '\n',
      400,
      /truncated: it ends after line 50 \(49 of the 121 records/,
    );
    await refused(valid.slice(0, valid.length - 30), 400, /not JSON|truncated/);
  });

  it('an altered export (one character of a record): 400, nothing written', async () => {
    await refused(valid.replace('zebrafinch 7"', 'zebrafinch 8"'), 400, /sha256/);
  });

  it('not an export, another version, a bad record, a wrong count: 400', async () => {
    await refused('hello\n', 400, /not JSON/);
    await refused('{"format":"something-else"}\n', 400, /not a Trove export/);
    await refused(valid.replace('"version":1', '"version":2'), 400, /version 2 is not supported/);
    await refused(valid.replace('"kind":"asset"', '"kind":"spaceship"'), 400, /unknown kind .*spaceship/);
    await refused(
      valid.replace('"mechanism":"MANUAL","created_at"', '"mechanism":7,"created_at"'),
      400,
      /mechanism.* must be a string/,
    );
    await refused(valid.replace(/"counts":\{"tag":1/g, '"counts":{"tag":2'), 400, /counts 2 tag records/);
    await refused('', 400, /request body|empty/);
    await refused(valid.replace('"name":"zebrafinch 3"', '"name":"zebrafinch \\ud800"'), 400, /well-formed/);
  });

  it('a hand-made file referring to records that do not exist: those records are skipped, and an asset left without its format with them', async () => {
    const applicationId = (await server.sql<{ id: string }>(`SELECT id FROM applications`))[0].id;
    const [tag, orphanAsset, orphanFormat] = generatedAssets(1, randomUUID(), 'nowhere');
    const [, keptAsset, keptFormat] = generatedAssets(1, applicationId, 'kept');
    const link = {
      kind: 'asset_tag',
      record: { asset_id: keptAsset.record.id, tag_id: tag.record.id, created_at: '2025-01-01T00:00:00.000Z' },
    };
    const res = await http(
      server.baseUrl,
      'POST',
      '/trove/import',
      ndjson([orphanAsset, orphanFormat, keptAsset, keptFormat, link]),
      NDJSON,
    );
    expect(res.status).toBe(200);
    expect(res.json.created).toEqual(expect.objectContaining({ asset: 1, format: 1, asset_tag: 0 }));
    expect(res.json.skipped).toEqual(expect.objectContaining({ asset: 1, format: 1, asset_tag: 1 }));
    expect((await http(server.baseUrl, 'GET', `/asset/${orphanAsset.record.id}`)).status).toBe(404);
    expect((await getJson(server, `/asset/${keptAsset.record.id}`)).name).toBe('kept 0');
  });

  it('a body over TROVE_IMPORT_LIMIT: 413; other content types and formats: 415 / 400', async () => {
    const big = ndjson(generatedAssets(400, randomUUID(), 'toolarge'));
    expect(big.length).toBeGreaterThan(64 * 1024);
    await refused(big, 413, /TROVE_IMPORT_LIMIT/);
    await refused('{"a":1}', 415, /application\/x-ndjson/, { 'content-type': 'application/json' });
    await refused('text', 415, /Content-Type/, { 'content-type': 'text/plain' });
    await refused(valid, 400, /format must be one of/, NDJSON, '?format=zip');
    await refused('{ "broken": ', 400, /not valid JSON/, OCTETS, '?format=vscode&name=x.json');
    await refused('[1, 2]', 400, /snippets/, OCTETS, '?format=masscode');
    // The upload content types stay refused by every other route.
    expectError(await http(server.baseUrl, 'POST', '/assets/create', valid, NDJSON), 415);
  });

  it('a valid export after all that imports whole', async () => {
    const res = await http(server.baseUrl, 'POST', '/trove/import', valid, NDJSON);
    expect(res.status).toBe(200);
    expect(res.json.created).toEqual(expect.objectContaining({ asset: 40, format: 40, asset_tag: 40, tag: 1 }));
    expect(await searchIds(server, 'zebrafinch 7')).toContain(
      JSON.parse(valid.split('\n').find((l) => l.includes('"name":"zebrafinch 7"'))!).record.id,
    );
  });
});

describe('importing snippets of other tools', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const upload = (format: string, file: string, name = file) =>
    http(
      server.baseUrl,
      'POST',
      `/trove/import?format=${format}&name=${encodeURIComponent(name)}`,
      readFileSync(join(FIXTURES, file)),
      OCTETS,
    );

  it('VS Code snippet files (JSON with comments): one asset per snippet, language from the file name or scope, prefixes as tags', async () => {
    const res = await upload('vscode', 'python.json');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expect.objectContaining({ format: 'vscode' }));
    expect(res.json.created).toEqual(
      expect.objectContaining({ asset: 2, format: 2, annotation: 2, tag: 3, asset_tag: 3 }),
    );
    expect(res.json.skipped.asset).toBe(1);
    const web = await upload('vscode', 'web.code-snippets');
    expect(web.json.created.asset).toBe(1);

    const [retry] = await searchIds(server, 'retry with backoff');
    const found = await getJson(server, `/asset/${retry}`);
    expect(found.name).toBe('Retry with backoff');
    expect(found.original.reference.classification.specific).toBe('py');
    expect(found.original.reference.fragment.string.raw).toMatch(/^def retry_with_backoff\(fn, attempts=\$\{1:5\}/);
    expect(found.tags.iterable.map((t: any) => t.text).sort()).toEqual(['rbo', 'retrybackoff']);
    expect(found.annotations.iterable.map((a: any) => [a.type, a.text])).toEqual([
      ['DESCRIPTION', 'Calls fn again with exponential backoff'],
    ]);
    const [fetchId] = await searchIds(server, 'fetchjsontimeout');
    expect((await getJson(server, `/asset/${fetchId}`)).original.reference.classification.specific).toBe('ts');

    // Again: nothing new.
    const again = await upload('vscode', 'python.json');
    expect(again.json.created.asset ?? 0).toBe(0);
    expect(await count(server, 'assets')).toBe(3);
  });

  it("massCode's db.json: one asset per fragment, tags and folder as tags, trash skipped", async () => {
    const before = await count(server, 'assets');
    const res = await upload('masscode', 'masscode-db.json');
    expect(res.status).toBe(200);
    expect(res.json.created.asset).toBe(3);
    expect(res.json.skipped.asset).toBe(1);
    const [upsert] = await searchIds(server, 'upsert customer');
    const found = await getJson(server, `/asset/${upsert}`);
    expect(found.name).toBe('Upsert a customer row');
    expect(found.favorited).toBe(true);
    expect(found.created.value).toBe(new Date(1700000100000).toISOString());
    expect(found.original.reference.classification.specific).toBe('sql');
    expect(found.tags.iterable.map((t: any) => t.text).sort()).toEqual(['Databases', 'snippets-i-reuse']);
    expect(found.annotations.iterable[0].text).toBe('Postgres upsert keyed by email');
    const css = await searchIds(server, 'search-box');
    const names = await Promise.all(css.map(async (id) => (await getJson(server, `/asset/${id}`)).name));
    expect(names).toContain('Debounced search box (search.css)');
    expect(await searchIds(server, 'zanzibarquokka')).toEqual([]);

    const again = await upload('masscode', 'masscode-db.json');
    expect(again.json.created.asset ?? 0).toBe(0);
    expect(await count(server, 'assets')).toBe(before + 3);
  });
});

describe('export with bounded memory, and Markdown', () => {
  let server: TestServer;
  let total: number;
  beforeAll(async () => {
    server = await startTestServer();
    const applicationId = (await server.sql<{ id: string }>(`SELECT id FROM applications`))[0].id;
    const records = generatedAssets(3000, applicationId, 'walrus', 300);
    total = records.length;
    const res = await http(server.baseUrl, 'POST', '/trove/import', ndjson(records), NDJSON);
    expect(res.status).toBe(200);
  }, 120_000);
  afterAll(() => server?.close());

  it('waits for a reader that does not read: a few hundred KB written of several MB, then finishes when it reads', async () => {
    let received = 0;
    let stalled = true;
    const waiting: Array<() => void> = [];
    const out = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (stalled) waiting.push(() => callback());
        else callback();
      },
    });
    let done = 0;
    const exporting = server.app.get(StoreExport).exportNdjson(out, (n) => (done = n));
    await new Promise((r) => setTimeout(r, 500));
    const whileStalled = received;
    expect(whileStalled).toBeLessThan(1024 * 1024);
    expect(done).toBeLessThan(total);
    stalled = false;
    waiting.splice(0).forEach((release) => release());
    const summary = await exporting;
    expect(summary.records).toBe(total + 1); // and the application
    expect(received).toBe(summary.bytes);
    expect(received).toBeGreaterThan(4 * whileStalled);
  });

  it('over HTTP too: the export of 3,000 assets streams (chunked) and is complete', async () => {
    const res = await fetch(`${server.baseUrl}/trove/export`);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const body = parse(await res.text());
    expect(body.end.counts.asset).toBe(3000);
  });

  it('Markdown: one file per live snippet, front matter and a fenced code block', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trove-md-'));
    try {
      const progress: number[] = [];
      const { files } = await server.app.get(MarkdownExport).exportMarkdown(dir, (n) => progress.push(n));
      expect(files).toBe(3000);
      const names = readdirSync(dir);
      expect(new Set(names).size).toBe(3000);
      expect(progress[progress.length - 1]).toBe(3000);
      const name = names.find((n) => n.startsWith('walrus-7-'))!;
      expect(name).toMatch(/^walrus-7-[0-9a-f]{8,}\.md$/);
      const text = readFileSync(join(dir, name), 'utf8');
      expect(text).toMatch(
        /^---\nid: "[0-9a-f-]{36}"\nname: "walrus 7"\nlanguage: "js"\ntags:\n {2}- "walrus-tag"\nwebsites: \[\]\ncreated: "2025-01-01T00:00:00.000Z"\n/,
      );
      expect(text).toContain('\n---\n\n```js\nfunction walrus7(value) {\n');
      expect(text.endsWith('```\n')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a client that goes away ends the export and releases its snapshot', async () => {
    // SQLite: a TRUNCATE checkpoint is busy while a reader holds a snapshot older than the WAL's end.
    // PostgreSQL: the snapshot is a transaction left idle while the export waits.
    const held = async (): Promise<boolean> => {
      if (testDatabaseUrl) {
        const sql = `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
        return Number((await server.sql<{ n: number }>(sql))[0].n) > 0;
      }
      // The writer's connection may be in the middle of a write (SQLITE_LOCKED): ask again.
      for (let attempt = 0; ; attempt++) {
        try {
          return Number((await server.sql<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)'))[0].busy) === 1;
        } catch (error) {
          if (attempt >= 50 || !/SQLITE_LOCKED|SQLITE_BUSY/.test(String(error))) throw error;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    };
    const create = (raw: string) => new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed(raw) });
    await create('const before = 1;');
    const ac = new AbortController();
    const res = await fetch(`${server.baseUrl}/trove/export`, { signal: ac.signal });
    await res.body!.getReader().read();
    await create('const meanwhile = 2;');
    // PostgreSQL: the export's transaction shows as idle only between its statements: ask until it waits.
    expect(await waitFor(held, (h) => h)).toBe(true);
    ac.abort();
    expect(await waitFor(held, (h) => !h)).toBe(false);
  });
});
