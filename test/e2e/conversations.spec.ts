import { AssetsApi, ConversationApi, ConversationsApi } from '@pieces.app/pieces-os-client';
import { randomUUID } from 'node:crypto';
import { RawResponse, expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';

const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';

/** A conversation about migrating a payment service; its key sentence is KEY. */
const KEY =
  'To migrate the payment service to PostgreSQL, export the SQLite tables, create the schema in PostgreSQL and copy the rows of the payment service with a migration script.';
const MIGRATION_CHAT = [
  { role: 'USER', text: 'How do I migrate the payment service from SQLite to PostgreSQL?' },
  { role: 'ASSISTANT', text: `${KEY} Keep the old SQLite file as a backup until the migration is verified.` },
  { role: 'USER', text: 'My cat likes fish.' },
  { role: 'ASSISTANT', text: 'After the migration script runs, point the payment service at the PostgreSQL URL.' },
];

describe('conversations', () => {
  let server: TestServer;
  let conversations: ConversationsApi;
  let conversation: ConversationApi;
  let assets: AssetsApi;

  beforeAll(async () => {
    server = await startTestServer();
    conversations = new ConversationsApi(server.sdk);
    conversation = new ConversationApi(server.sdk);
    assets = new AssetsApi(server.sdk);
  });
  afterAll(() => server.close());

  const TABLES = [
    'conversations',
    'conversation_messages',
    'conversation_annotations',
    'conversation_assets',
    'conversation_websites',
    'conversation_anchors',
    'conversation_workstream_summaries',
    'conversation_grounding_ranges',
    'conversation_grounding_messages',
    'anchors',
  ];
  /** Row counts of every conversation table: a rejected request must leave them all unchanged. */
  async function counts(): Promise<string> {
    return server.counts(TABLES);
  }
  const post = (path: string, body?: unknown): Promise<RawResponse> => http(server.baseUrl, 'POST', path, body);
  const get = (path: string): Promise<RawResponse> => http(server.baseUrl, 'GET', path);
  const messages = (list: { role: string; text: string }[]) =>
    list.map((m) => ({ role: m.role, fragment: { string: { raw: m.text } } }));
  async function chat(list: { role: string; text: string }[], extra: Record<string, unknown> = {}): Promise<any> {
    const res = await post('/conversations/create', {
      type: 'COPILOT',
      name: null,
      messages: messages(list),
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.json;
  }
  async function newAsset(raw: string, metadata: Record<string, unknown> = {}): Promise<string> {
    return (await assets.assetsCreateNewAsset({ seed: textSeed(raw, metadata) })).id;
  }
  async function deleteAsset(id: string): Promise<void> {
    expect((await post(`/assets/${id}/delete`)).status).toBe(200);
  }

  describe('create and read', () => {
    it('creates an empty unnamed COPILOT conversation without a body, through the SDK', async () => {
      const created = await conversations.conversationsCreateSpecificConversation();
      expect(created.type).toBe('COPILOT');
      expect(created.name).toBeUndefined();
      expect(created.messages.iterable).toEqual([]);
      expect(created.created.value).toBeInstanceOf(Date);
      const raw = await get(`/conversation/${created.id}`);
      expect(raw.status).toBe(200);
      expectWire('Conversation', raw.json);
    });

    it('creates a new chat exactly as the CLI does ({"name": null, "type": "COPILOT"})', async () => {
      const res = await post('/conversations/create', { name: null, type: 'COPILOT' });
      expect(res.status).toBe(200);
      expectWire('Conversation', res.json);
      expect(res.json).not.toHaveProperty('name');
      expect(res.json.score).toEqual(expect.objectContaining({ manual: 0, automatic: 0 }));
    });

    it('stores initial messages, annotations, linked assets and websites, and anchors from the seed', async () => {
      const assetId = await newAsset('def hello():\n    print("hi")\n', {
        name: 'hello',
        websites: [{ url: 'https://seeded.example/', name: 'seeded' }],
      });
      const websiteId = (
        await server.sql<{ id: string }>(`SELECT id FROM websites WHERE url = 'https://seeded.example/'`)
      )[0].id;
      const created = await conversations.conversationsCreateSpecificConversation({
        transferables: true,
        seededConversation: {
          type: 'COPILOT',
          name: 'Seeded chat',
          messages: [
            { role: 'USER', fragment: { string: { raw: 'What does hello do?' } } },
            { role: 'ASSISTANT', fragment: { string: { raw: 'It prints hi.' } } },
          ],
          annotations: [{ type: 'COMMENT', text: 'a note' }],
          assets: { iterable: [{ id: assetId }] },
          websites: { iterable: [{ id: websiteId }] },
          anchors: [{ type: 'FILE', fullpath: '/home/me/project/hello.py' }],
        } as any,
      });
      expect(created.name).toBe('Seeded chat');
      const raw = (await get(`/conversation/${created.id}`)).json;
      expectWire('Conversation', raw);
      expect(raw.messages.iterable).toHaveLength(2);
      expect(Object.values(raw.messages.indices).sort()).toEqual([0, 1]);
      expect(raw.annotations.iterable[0].reference).toEqual(
        expect.objectContaining({ type: 'COMMENT', text: 'a note' }),
      );
      expect(raw.assets.iterable).toEqual([
        expect.objectContaining({ id: assetId, reference: expect.objectContaining({ id: assetId, name: 'hello' }) }),
      ]);
      expect(raw.websites.iterable).toEqual([
        expect.objectContaining({
          id: websiteId,
          reference: expect.objectContaining({ url: 'https://seeded.example/' }),
        }),
      ]);
      expect(raw.anchors.iterable[0].reference).toEqual(expect.objectContaining({ type: 'FILE', name: 'hello.py' }));

      const list = await conversation.conversationSpecificConversationMessages({ conversation: created.id });
      const ordered = [...list.iterable].sort((a, b) => list.indices![a.id] - list.indices![b.id]);
      expect(ordered.map((m) => [m.role, m.fragment?.string?.raw, m.conversation.id])).toEqual([
        ['USER', 'What does hello do?', created.id],
        ['ASSISTANT', 'It prints hi.', created.id],
      ]);
      const rawMessages = await get(`/conversation/${created.id}/messages`);
      expectWire('ConversationMessages', rawMessages.json);
      const without = await get(`/conversation/${created.id}/messages?transferables=false`);
      expect(without.json.iterable.every((m: any) => m.fragment === undefined)).toBe(true);
      expectWire('ConversationMessages', without.json);
    });

    it('lists conversations and their identifiers, most recent first', async () => {
      const first = await chat([{ role: 'USER', text: 'first' }]);
      const second = await chat([{ role: 'USER', text: 'second' }]);
      const ids = await conversations.conversationsIdentifiersSnapshot();
      const order = ids.iterable.map((c) => c.id);
      expect(order.indexOf(second.id)).toBeLessThan(order.indexOf(first.id));
      expectWire('FlattenedConversations', (await get('/conversations/identifiers')).json);
      const all = await get('/conversations?transferables=false');
      expectWire('Conversations', all.json);
      expect(all.json.iterable.map((c: any) => c.id)).toEqual(order);
      const viaSdk = await conversations.conversationsSnapshot({ transferables: true });
      expect(viaSdk.iterable.map((c) => c.id)).toEqual(order);
    });

    it('answers 404 for an unknown conversation and 400 for a malformed id', async () => {
      expectError(await get(`/conversation/${UNKNOWN}`), 404, /not found/);
      expectError(await get(`/conversation/${UNKNOWN}/messages`), 404, /not found/);
      expectError(await get('/conversation/not-a-uuid'), 400, /UUID/);
      expectError(await get(`/conversation/${UNKNOWN}?transferables=maybe`), 400, /transferables/);
    });

    it('rejects bad seeds with a 400 and writes nothing', async () => {
      const before = await counts();
      const bad: [unknown, RegExp][] = [
        [{ type: 'CHAT' }, /type must be one of/],
        [{ type: 'COPILOT', colour: 'red' }, /colour/],
        [{ type: 'COPILOT', name: 42 }, /name/],
        [{ type: 'COPILOT', messages: [{ fragment: { string: { raw: 'x' } } }] }, /role/],
        [{ type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: {} } }] }, /raw is required/],
        [
          {
            type: 'COPILOT',
            messages: [
              { role: 'USER', fragment: { string: { raw: 'ok' } } },
              { role: 'BOT', fragment: { string: { raw: 'x' } } },
            ],
          },
          /role/,
        ],
        [{ type: 'COPILOT', messages: [{ role: 'USER', fragment: { string: { raw: 'nul \u0000' } } }] }, /NUL/],
        [{ type: 'COPILOT', assets: { iterable: [{ id: 'nope' }] } }, /id must be a UUID/],
        [{ type: 'COPILOT', anchors: [{ type: 'FILE' }] }, /fullpath/],
        ['{"type": ', /JSON|Unexpected|parse/i],
      ];
      for (const [body, message] of bad) expectError(await post('/conversations/create', body), 400, message);
      expect(await counts()).toBe(before);
    });

    it('refuses to link unknown (404) or deleted (410) assets at creation, writing nothing', async () => {
      const gone = await newAsset('soon deleted');
      await deleteAsset(gone);
      const before = await counts();
      const seed = (id: string) => ({
        type: 'COPILOT',
        messages: messages([{ role: 'USER', text: 'hi' }]),
        assets: { iterable: [{ id }] },
      });
      expectError(await post('/conversations/create', seed(UNKNOWN)), 404, /asset/);
      expectError(await post('/conversations/create', seed(gone)), 410, /asset/);
      expectError(
        await post('/conversations/create', { type: 'COPILOT', websites: { iterable: [{ id: UNKNOWN }] } }),
        404,
        /website/,
      );
      expect(await counts()).toBe(before);
    });
  });

  describe('update', () => {
    it('round-trips the whole Conversation through the SDK (rename, favorite, type)', async () => {
      const created = await chat([{ role: 'USER', text: 'hello' }]);
      const fetched = await conversation.conversationGetSpecificConversation({ conversation: created.id });
      const updated = await conversation.conversationUpdate({
        conversation: { ...fetched, name: 'Renamed by hand', favorited: true, type: 'UNKNOWN' as any },
      });
      expect(updated.name).toBe('Renamed by hand');
      expect(updated.favorited).toBe(true);
      expect(updated.type).toBe('UNKNOWN');
      const raw = (await get(`/conversation/${created.id}`)).json;
      expectWire('Conversation', raw);
      expect(raw.name).toBe('Renamed by hand');
      // Sending the served object back unchanged is accepted as is.
      const again = await post('/conversation/update', raw);
      expect(again.status).toBe(200);
      expect(again.json.name).toBe('Renamed by hand');
      // null clears the name
      const cleared = await post('/conversation/update', { id: created.id, name: null });
      expect(cleared.json).not.toHaveProperty('name');
    });

    it('edits and removes annotations to match the list it is given', async () => {
      const created = await chat([{ role: 'USER', text: 'hi' }], {
        annotations: [
          { type: 'COMMENT', text: 'keep me' },
          { type: 'COMMENT', text: 'drop me' },
        ],
      });
      const [keep, drop] = created.annotations.iterable;
      expect(keep.reference.text).toBe('keep me');
      const res = await post('/conversation/update', {
        id: created.id,
        annotations: { iterable: [{ id: keep.id, reference: { ...keep.reference, text: 'kept and edited' } }] },
      });
      expect(res.status).toBe(200);
      expect(res.json.annotations.iterable).toEqual([
        expect.objectContaining({ id: keep.id, reference: expect.objectContaining({ text: 'kept and edited' }) }),
      ]);
      expect(await server.sql(`SELECT id FROM conversation_annotations WHERE id = '${drop.id}'`)).toHaveLength(0);
    });

    it('applies messages.indices: -1 deletes a message (clients filter on it), reordering is kept', async () => {
      const created = await chat([
        { role: 'USER', text: 'one' },
        { role: 'ASSISTANT', text: 'two' },
        { role: 'USER', text: 'three' },
      ]);
      const [one, two, three] = created.messages.iterable.map((m: any) => m.id);
      const res = await post('/conversation/update', {
        id: created.id,
        messages: { iterable: created.messages.iterable, indices: { [one]: 1, [two]: -1, [three]: 0 } },
      });
      expect(res.status).toBe(200);
      expect(res.json.messages.indices).toEqual({ [one]: 1, [two]: -1, [three]: 0 });
      const list = (await get(`/conversation/${created.id}/messages`)).json;
      expectWire('ConversationMessages', list);
      expect(list.indices).toEqual({ [one]: 1, [two]: -1, [three]: 0 });
      expect(list.iterable.find((m: any) => m.id === two).deleted.value).toMatch(/Z$/);
      // a non-negative index restores it
      const restored = await post('/conversation/update', {
        id: created.id,
        messages: { iterable: [], indices: { [two]: 2 } },
      });
      expect(restored.json.messages.indices).toEqual({ [three]: 0, [one]: 1, [two]: 2 });
    });

    it('rejects bad updates with 4xx and changes nothing', async () => {
      const created = await chat([{ role: 'USER', text: 'stable' }], { name: 'Stable' });
      const msg = created.messages.iterable[0].id;
      const other = await chat([{ role: 'USER', text: 'elsewhere' }]);
      const before = JSON.stringify((await get(`/conversation/${created.id}`)).json);
      const rows = await counts();
      expectError(await post('/conversation/update', { id: created.id, name: 'x', surprise: true }), 400, /surprise/);
      expectError(await post('/conversation/update', { id: created.id, type: 'GROUP' }), 400, /type/);
      expectError(await post('/conversation/update', { id: 'abc' }), 400, /id must be a UUID/);
      expectError(await post('/conversation/update'), 400, /id/);
      expectError(
        await post('/conversation/update', {
          id: created.id,
          name: 'x',
          messages: { iterable: [], indices: { [msg]: 'first' } },
        }),
        400,
        /indices/,
      );
      expectError(
        await post('/conversation/update', {
          id: created.id,
          name: 'x',
          messages: { iterable: [], indices: { [other.messages.iterable[0].id]: 0 } },
        }),
        400,
        /not a message/,
      );
      expectError(
        await post('/conversation/update', { id: created.id, name: 'x', annotations: { iterable: [{ id: UNKNOWN }] } }),
        400,
        /annotation/,
      );
      expectError(await post('/conversation/update', { id: UNKNOWN, name: 'x' }), 404, /not found/);
      expect(JSON.stringify((await get(`/conversation/${created.id}`)).json)).toBe(before);
      expect(await counts()).toBe(rows);
    });
  });

  describe('links', () => {
    let conv: string;
    beforeAll(async () => {
      conv = (await chat([{ role: 'USER', text: 'links' }])).id;
    });
    const fetch = async () => (await get(`/conversation/${conv}`)).json;

    it('links and unlinks assets, seen from both sides, under both path spellings', async () => {
      const assetId = await newAsset('SELECT * FROM invoices;', { name: 'invoices query' });
      await conversation.conversationAssociateAsset({ conversation: conv, asset: assetId });
      await conversation.conversationAssociateAsset({ conversation: conv, asset: assetId }); // idempotent
      const linked = await fetch();
      expectWire('Conversation', linked);
      expect(linked.assets.iterable.map((a: any) => a.id)).toEqual([assetId]);
      const fromAsset = await get(`/asset/${assetId}/conversations`);
      expect(fromAsset.status).toBe(200);
      expectWire('Conversations', fromAsset.json);
      expect(fromAsset.json.iterable.map((c: any) => c.id)).toEqual([conv]);

      // the core interface's spelling
      const res = await post(`/conversation/${conv}/assets/delete/${assetId}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await fetch()).assets.iterable).toEqual([]);
      expect((await get(`/asset/${assetId}/conversations`)).json.iterable).toEqual([]);
      // current clients' spelling, through the SDK
      await conversation.conversationAssociateAsset({ conversation: conv, asset: assetId });
      await conversation.conversationDisassociateAsset({ conversation: conv, asset: assetId });
      await conversation.conversationDisassociateAsset({ conversation: conv, asset: assetId }); // idempotent
      expect((await fetch()).assets.iterable).toEqual([]);
      // the asset itself is untouched
      expect((await get(`/asset/${assetId}`)).status).toBe(200);
    });

    it('drops the link when the asset is deleted; the asset side then answers 410', async () => {
      const assetId = await newAsset('to be deleted');
      await conversation.conversationAssociateAsset({ conversation: conv, asset: assetId });
      await deleteAsset(assetId);
      expect((await fetch()).assets.iterable).toEqual([]);
      expectError(await get(`/asset/${assetId}/conversations`), 410, /asset/);
      expectError(await post(`/conversation/${conv}/assets/associate/${assetId}`), 410, /asset/);
      expectError(await get(`/asset/${UNKNOWN}/conversations`), 404, /asset/);
      for (
        let i = 0;
        i < 20 && (await server.sql(`SELECT * FROM conversation_assets WHERE asset_id = '${assetId}'`)).length;
        i += 1
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await server.sql(`SELECT * FROM conversation_assets WHERE asset_id = '${assetId}'`)).toHaveLength(0);
    });

    it('links websites, workstream summaries, anchors and temporal ranges', async () => {
      await newAsset('https site', { websites: [{ url: 'https://linked.example/', name: 'linked' }] });
      const websiteId = (
        await server.sql<{ id: string }>(`SELECT id FROM websites WHERE url = 'https://linked.example/'`)
      )[0].id;
      const summaryId = randomUUID();
      const anchorId = randomUUID();
      const rangeId = randomUUID();
      const now = new Date().toISOString();
      await server.sql(
        `INSERT INTO workstream_summaries (id, name, created_at, updated_at) VALUES ('${summaryId}', 'Monday work', '${now}', '${now}')`,
      );
      await server.sql(
        `INSERT INTO anchors (id, type, fullpath, name, watch, platform, created_at, updated_at) VALUES ('${anchorId}', 'DIRECTORY', '/srv/app', NULL, false, NULL, '${now}', '${now}')`,
      );
      await server.sql(
        `INSERT INTO ranges (id, from_at, to_at, continuous, created_at, updated_at) VALUES ('${rangeId}', '${now}', NULL, true, '${now}', '${now}')`,
      );

      await conversation.conversationAssociateWebsite({ conversation: conv, website: websiteId });
      await conversation.conversationAssociateWorkstreamSummary({ conversation: conv, workstreamSummary: summaryId });
      await conversation.conversationAssociateAnchor({ conversation: conv, anchor: anchorId });
      await conversation.conversationAssociateGroundingTemporalRangeWorkstream({ conversation: conv, range: rangeId });
      await conversation.conversationAssociateGroundingTemporalRangeWorkstream({ conversation: conv, range: rangeId });
      let c = await fetch();
      expectWire('Conversation', c);
      expect(c.websites.iterable.map((w: any) => w.id)).toEqual([websiteId]);
      expect(c.summaries.iterable).toEqual([{ id: summaryId }]);
      expect(c.anchors.iterable).toEqual([
        expect.objectContaining({
          id: anchorId,
          reference: expect.objectContaining({ type: 'DIRECTORY', name: 'app' }),
        }),
      ]);
      expect(c.grounding.temporal.workstreams.iterable).toEqual([{ id: rangeId }]);
      const sdkView = await conversation.conversationGetSpecificConversation({ conversation: conv });
      expect(sdkView.summaries?.iterable.map((s) => s.id)).toEqual([summaryId]);

      await conversation.conversationDisassociateWebsite({ conversation: conv, website: websiteId });
      await conversation.conversationDisassociateWorkstreamSummary({
        conversation: conv,
        workstreamSummary: summaryId,
      });
      expect((await post(`/conversation/${conv}/anchors/delete/${anchorId}`)).status).toBe(204);
      await conversation.conversationAssociateAnchor({ conversation: conv, anchor: anchorId });
      await conversation.conversationDisassociateAnchor({ conversation: conv, anchor: anchorId }); // .../anchors/disassociate/...
      await conversation.conversationDisassociateGroundingTemporalRangeWorkstream({
        conversation: conv,
        range: rangeId,
      });
      c = await fetch();
      expect([
        c.websites.iterable,
        c.summaries.iterable,
        c.anchors.iterable,
        c.grounding.temporal.workstreams.iterable,
      ]).toEqual([[], [], [], []]);
      // the records themselves stay
      expect(await server.sql(`SELECT id FROM anchors WHERE id = '${anchorId}'`)).toHaveLength(1);
      expect(await server.sql(`SELECT id FROM workstream_summaries WHERE id = '${summaryId}'`)).toHaveLength(1);
    });

    it('grounds a conversation in messages of another one', async () => {
      const other = await chat([{ role: 'USER', text: 'ground me' }]);
      const messageId = other.messages.iterable[0].id;
      await conversation.conversationGroundingMessagesAssociateMessage({ conversation: conv, message: messageId });
      expect((await fetch()).grounding.messages.iterable).toEqual([{ id: messageId }]);
      await conversation.conversationGroundingMessagesDisassociateMessage({ conversation: conv, message: messageId });
      expect((await fetch()).grounding.messages.iterable).toEqual([]);
    });

    it('answers 404 for unknown ids on every link route and 400 for malformed conversation ids, changing nothing', async () => {
      const before = await counts();
      const routes = [
        'anchors/associate',
        'anchors/delete',
        'anchors/disassociate',
        'assets/associate',
        'assets/delete',
        'assets/disassociate',
        'grounding/temporal_range/workstreams/associate',
        'grounding/temporal_range/workstreams/disassociate',
        'websites/associate',
        'websites/disassociate',
        'workstream_summaries/associate',
        'workstream_summaries/disassociate',
        'grounding/messages/associate',
        'grounding/messages/disassociate',
      ];
      for (const route of routes) {
        expectError(await post(`/conversation/${conv}/${route}/${UNKNOWN}`), 404, /not found/);
        expectError(await post(`/conversation/${UNKNOWN}/${route}/${UNKNOWN}`), 404, /conversation/);
        expectError(await post(`/conversation/nope/${route}/${UNKNOWN}`), 400, /UUID/);
      }
      expectError(await post(`/conversation/${conv}/assets/associate/not-a-uuid`), 400, /asset must be a UUID/);
      expect(
        await statusOf(conversation.conversationAssociateAnchor({ conversation: conv, anchor: 'missing-anchor' })),
      ).toBe(404);
      expect(await counts()).toBe(before);
    });
  });

  describe('delete', () => {
    it('deletes a conversation with its messages and links; reads then answer 410', async () => {
      const assetId = await newAsset('linked to a doomed chat');
      const doomed = await chat(
        [
          { role: 'USER', text: 'doomed' },
          { role: 'ASSISTANT', text: 'indeed' },
        ],
        {
          assets: { iterable: [{ id: assetId }] },
          annotations: [{ type: 'COMMENT', text: 'bye' }],
        },
      );
      const survivor = await chat([{ role: 'USER', text: 'survivor' }]);
      await conversation.conversationGroundingMessagesAssociateMessage({
        conversation: survivor.id,
        message: doomed.messages.iterable[0].id,
      });
      expect((await get(`/asset/${assetId}/conversations`)).json.iterable.map((c: any) => c.id)).toEqual([doomed.id]);

      await conversations.conversationsDeleteSpecificConversation({ conversation: doomed.id });
      expectError(await get(`/conversation/${doomed.id}`), 410, /no longer exists/);
      expect(await statusOf(conversation.conversationGetSpecificConversation({ conversation: doomed.id }))).toBe(410);
      expectError(await get(`/conversation/${doomed.id}/messages`), 410);
      expect((await conversations.conversationsIdentifiersSnapshot()).iterable.map((c) => c.id)).not.toContain(
        doomed.id,
      );
      expect((await get(`/asset/${assetId}/conversations`)).json.iterable).toEqual([]);
      expect((await get(`/asset/${assetId}`)).status).toBe(200);
      for (const table of ['conversation_messages', 'conversation_assets', 'conversation_annotations']) {
        expect(await server.sql(`SELECT * FROM ${table} WHERE conversation_id = '${doomed.id}'`)).toHaveLength(0);
      }
      expect((await get(`/conversation/${survivor.id}`)).json.grounding.messages.iterable).toEqual([]);
      expect(await server.sql(`SELECT id FROM conversations WHERE id = '${doomed.id}'`)).toHaveLength(1); // tombstone

      const again = await post(`/conversations/${doomed.id}/delete`);
      expectError(again, 410);
      expectError(await post(`/conversations/${UNKNOWN}/delete`), 404);
      expectError(await post(`/conversation/${doomed.id}/assets/associate/${assetId}`), 410);
      expectError(await post('/conversation/update', { id: doomed.id, name: 'zombie' }), 410);
    });

    it('answers 204 with an empty body', async () => {
      const c = await chat([]);
      const res = await post(`/conversations/${c.id}/delete`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    });
  });

  describe('from an asset', () => {
    it('opens a conversation about a code asset with an assistant message naming its language and definitions', async () => {
      const code =
        'import math\n\n# Computes the area of a circle.\ndef circle_area(radius):\n    return math.pi * radius ** 2\n\nclass Shape:\n    pass\n';
      const seed = textSeed(code, { name: 'circle area' });
      (seed.asset!.format as any).classification = { generic: 'CODE', specific: 'py' };
      const assetId = (await assets.assetsCreateNewAsset({ seed })).id;
      const out = await conversations.conversationsCreateFromAsset({ asset: assetId });
      const raw = (await get(`/conversation/${out.conversation.id}`)).json;
      expectWire('Conversation', raw);
      expect(raw.name).toBe('circle area');
      expect(raw.assets.iterable.map((a: any) => a.id)).toEqual([assetId]);
      const list = (await get(`/conversation/${out.conversation.id}/messages`)).json;
      expect(list.iterable).toHaveLength(1);
      const first = list.iterable[0];
      expect(first.role).toBe('ASSISTANT');
      expect(list.indices[first.id]).toBe(0);
      const text: string = first.fragment.string.raw;
      expect(text).toMatch(/Python code snippet/);
      expect(text).toContain('function `circle_area`');
      expect(text).toContain('class `Shape`');
      expect(text).toContain('`math`');
      expect(text).toContain('Computes the area of a circle.');
      expect((await get(`/asset/${assetId}/conversations`)).json.iterable.map((c: any) => c.id)).toEqual([
        out.conversation.id,
      ]);
    });

    it('summarises a prose asset by its central sentences', async () => {
      const prose =
        'Kubernetes schedules pods onto nodes. A pod is the smallest deployable unit that Kubernetes schedules. Nodes run the kubelet, which starts the pods that Kubernetes schedules. The cafeteria serves soup on Fridays.';
      const assetId = await newAsset(prose);
      const res = await post(`/conversations/create/from_asset/${assetId}`);
      expect(res.status).toBe(200);
      expectWire('ConversationsCreateFromAssetOutput', res.json);
      const text: string = (await get(`/conversation/${res.json.conversation.id}/messages`)).json.iterable[0].fragment
        .string.raw;
      expect(text).toMatch(/text note/);
      expect(text).toContain('A pod is the smallest deployable unit that Kubernetes schedules.');
      const central = text.split('\n').find((line) => line.startsWith('Its central points:'));
      expect(central).toContain('Kubernetes schedules pods onto nodes.');
      expect(central).not.toContain('cafeteria');
    });

    it('answers 404 for an unknown asset and 410 for a deleted one, creating nothing', async () => {
      const gone = await newAsset('gone soon');
      await deleteAsset(gone);
      const before = await counts();
      expectError(await post(`/conversations/create/from_asset/${UNKNOWN}`), 404, /asset/);
      expectError(await post(`/conversations/create/from_asset/${gone}`), 410, /asset/);
      expectError(await post('/conversations/create/from_asset/xyz'), 400, /UUID/);
      expect(await counts()).toBe(before);
    });
  });

  describe('rename, summarize, scores', () => {
    it('names a conversation from its topic, deterministically', async () => {
      const c = await chat(MIGRATION_CHAT);
      const renamed = await conversation.conversationSpecificConversationRename({ conversation: c.id });
      expect(renamed.name?.toLowerCase()).toContain('payment service');
      const again = await post(`/conversation/${c.id}/rename?transferables=false`);
      expect(again.status).toBe(200);
      expectWire('Conversation', again.json);
      expect(again.json.name).toBe(renamed.name);
      expect((await get(`/conversation/${c.id}`)).json.name).toBe(renamed.name);
    });

    it('keeps the name of a conversation with nothing to name it by; 404/410 otherwise', async () => {
      const c = await chat([], { name: 'Keep me' });
      expect((await post(`/conversation/${c.id}/rename`)).json.name).toBe('Keep me');
      expectError(await post(`/conversation/${UNKNOWN}/rename`), 404);
    });

    it('summarizes into a SUMMARY annotation holding the key sentence, shown on the conversation', async () => {
      const c = await chat(MIGRATION_CHAT);
      const out = await conversation.conversationSummarize({ conversation: c.id });
      expect(out.conversation.id).toBe(c.id);
      const raw = (await get(`/conversation/${c.id}`)).json;
      expectWire('Conversation', raw);
      const annotation = raw.annotations.iterable.find((a: any) => a.id === out.annotation.id);
      expect(annotation.reference.type).toBe('SUMMARY');
      expect(annotation.reference.mechanism).toBe('AUTOMATIC');
      expect(annotation.reference.text).toContain(KEY);
      expect(annotation.reference.text).not.toContain('cat');
      // deterministic: the same conversation gives the same summary
      const second = await post(`/conversation/${c.id}/summarize`);
      expectWire('ConversationSummarizeOutput', second.json);
      const texts = (await get(`/conversation/${c.id}`)).json.annotations.iterable.map((a: any) => a.reference.text);
      expect(texts).toHaveLength(2);
      expect(texts[1]).toBe(texts[0]);
    });

    it('summarizes only the given messages', async () => {
      const c = await chat(MIGRATION_CHAT);
      const catMessage = c.messages.iterable[2].id;
      const out = await conversation.conversationSummarize({
        conversation: c.id,
        conversationSummarizeInput: { messages: { iterable: [{ id: catMessage }] } },
      });
      const text = (
        await server.sql<{ text: string }>(
          `SELECT text FROM conversation_annotations WHERE id = '${out.annotation.id}'`,
        )
      )[0].text;
      expect(text).toBe('My cat likes fish.');
    });

    it('rejects summaries of nothing, of foreign or unknown messages, and bad input, writing nothing', async () => {
      const c = await chat(MIGRATION_CHAT);
      const other = await chat([{ role: 'USER', text: 'Another topic entirely.' }]);
      const empty = await chat([]);
      const before = await counts();
      expectError(await post(`/conversation/${empty.id}/summarize`), 400, /no message text/);
      expectError(
        await post(`/conversation/${c.id}/summarize`, {
          messages: { iterable: [{ id: other.messages.iterable[0].id }] },
        }),
        400,
        /not a message/,
      );
      expectError(
        await post(`/conversation/${c.id}/summarize`, { messages: { iterable: [{ id: UNKNOWN }] } }),
        404,
        /message/,
      );
      expectError(await post(`/conversation/${c.id}/summarize`, { messages: { iterable: [] } }), 400, /at least one/);
      expectError(await post(`/conversation/${c.id}/summarize`, { messages: [] }), 400, /messages/);
      expectError(await post(`/conversation/${UNKNOWN}/summarize`), 404);
      expect(await counts()).toBe(before);
    });

    it('increments scores like assets do, reflected on Conversation.score', async () => {
      const c = await chat([{ role: 'USER', text: 'score me' }]);
      await conversation.conversationScoresIncrement({
        conversation: c.id,
        seededScoreIncrement: { conversation: { reuse: true, searched: true } },
      });
      const res = await post(`/conversation/${c.id}/scores/increment`, { conversation: { update: true } });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const score = (await get(`/conversation/${c.id}`)).json.score;
      expect(score).toEqual({ manual: 2, automatic: 1, reuse: 1, update: 1, reference: 0, priority: 0, searched: 1 });
      const before = await counts();
      expectError(await post(`/conversation/${c.id}/scores/increment`), 400, /conversation/);
      expectError(
        await post(`/conversation/${c.id}/scores/increment`, { conversation: { reuse: 'yes' } }),
        400,
        /reuse/,
      );
      expectError(await post(`/conversation/${c.id}/scores/increment`, { conversation: {} }), 400, /at least one/);
      expectError(await post(`/conversation/${UNKNOWN}/scores/increment`, { conversation: { reuse: true } }), 404);
      expect((await get(`/conversation/${c.id}`)).json.score.manual).toBe(2);
      expect(await counts()).toBe(before);
    });
  });
});
