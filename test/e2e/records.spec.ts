import {
  ActivitiesApi,
  ActivityApi,
  AnchorApi,
  AnchorPointApi,
  AnchorPointsApi,
  AnchorsApi,
  AnnotationApi,
  AnnotationsApi,
  AssetApi,
  AssetsApi,
  ConversationApi,
  ConversationMessagesApi,
  ConversationsApi,
  FormatApi,
  FormatsApi,
  PersonsApi,
  RangeApi,
  RangesApi,
  SensitivesApi,
  TagApi,
  TagsApi,
  WebsiteApi,
  WebsitesApi,
} from '@pieces.app/pieces-os-client';
import { RawResponse, expectError, http, statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer, useTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient } from './support/ws';

/**
 * The records Trove holds besides assets and conversations, as the SDK's collections and records
 * (issue 42): tags, websites, annotations, activities, anchors and their points, ranges, messages,
 * formats; persons (none) and sensitives (none without secrets). Created, read back through the official SDK (its
 * `XFromJSON`) and against the wire schemas, linked both ways, announced where they change an
 * asset or a conversation, refused (4xx, nothing written) when wrong. SQLite and PostgreSQL.
 */
const UNKNOWN = '0a0b0c0d-0000-4000-8000-00000000dead';
const APPLICATION = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'VS_CODE',
  version: '1.90.0',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
} as const;

describe('records as collections of their own', () => {
  const server = useTestServer();
  const get = (path: string): Promise<RawResponse> => http(server.baseUrl, 'GET', path);
  const post = (path: string, body?: unknown): Promise<RawResponse> => http(server.baseUrl, 'POST', path, body);
  const newAsset = async (raw: string, metadata: Record<string, unknown> = {}) =>
    (await new AssetsApi(server.sdk).assetsCreateNewAsset({ seed: textSeed(raw, metadata) })).id;
  const newConversation = async (name = 'records') =>
    (
      await new ConversationsApi(server.sdk).conversationsCreateSpecificConversation({
        seededConversation: { type: 'COPILOT', name },
      })
    ).id;
  const assetJson = async (id: string) => (await get(`/asset/${id}`)).json;
  const conversationJson = async (id: string) => (await get(`/conversation/${id}`)).json;
  /** The ids a stream announces after its first frame, until `count` have come. */
  async function announced(
    path: string,
    key: string,
    act: () => Promise<unknown>,
    count = 1,
  ): Promise<Array<{ id: string; deleted?: boolean }>> {
    const client = await StreamClient.open(server.baseUrl, path);
    try {
      await client.next();
      await act();
      const out: Array<{ id: string; deleted?: boolean }> = [];
      while (out.length < count) {
        const frame = await client.next<{ iterable: Array<Record<string, { id: string }> & { deleted?: boolean }> }>();
        for (const item of frame.iterable) out.push({ id: item[key].id, ...(item.deleted ? { deleted: true } : {}) });
      }
      return out;
    } finally {
      client.socket.close();
    }
  }

  describe('tags', () => {
    it('creates a tag linked to an asset: the tag lists the asset, the asset lists the tag (with indices), and the asset is announced', async () => {
      const asset = await newAsset('def ledger(): pass');
      const frames = await announced('/assets/stream/identifiers', 'asset', () =>
        post('/tags/create', { text: '  ledger  tools ', asset }),
      );
      expect(frames).toEqual([{ id: asset }]);
      const tag = (await post('/tags/exists', { value: 'ledger tools' })).json.tag.reference;
      expectWire('Tag', tag);
      expect(tag).toMatchObject({
        text: 'ledger tools',
        category: 'UNKNOWN',
        assets: { iterable: [{ id: asset }], indices: { [asset]: 0 } },
      });
      const read = await new TagApi(server.sdk).tagsSpecificTagSnapshot({ tag: tag.id });
      expect(read.assets!.iterable!.map((a) => a.id)).toEqual([asset]);
      const shown = await assetJson(asset);
      expectWire('Asset', shown);
      expect(shown.tags.iterable.map((t: { text: string }) => t.text)).toContain('ledger tools');
      expect(shown.tags.indices[tag.id]).toBe(shown.tags.iterable.findIndex((t: { id: string }) => t.id === tag.id));
    });

    it('is one record per text: creating it again answers the same tag, now linked to the second asset too', async () => {
      const [a, b] = [await newAsset('const a = 1;'), await newAsset('const b = 2;')];
      const first = await new TagsApi(server.sdk).tagsCreateNewTag({ seededTag: { text: 'shared', asset: a } });
      const second = await new TagsApi(server.sdk).tagsCreateNewTag({ seededTag: { text: 'shared', asset: b } });
      expect(second.id).toBe(first.id);
      expect(second.assets!.iterable!.map((x) => x.id).sort()).toEqual([a, b].sort());
      expect(await server.sql(`SELECT COUNT(*) AS n FROM tags WHERE text = 'shared'`)).toEqual([
        { n: server.config.dialect === 'sqlite' ? 1 : '1' },
      ]);
    });

    it('lists every tag (GET /tags) and finds them by text (exists, search)', async () => {
      await new TagsApi(server.sdk).tagsCreateNewTag({ seededTag: { text: 'alpha search' } });
      const all = await get('/tags');
      expect(all.headers.get('transfer-encoding')).toBe('chunked');
      expectWire('Tags', all.json);
      expect(all.json.iterable.map((t: { text: string }) => t.text)).toEqual(
        expect.arrayContaining(['alpha search', 'shared']),
      );
      expect((await new TagsApi(server.sdk).tagsSnapshot()).iterable.length).toBe(all.json.iterable.length);
      expect((await post('/tags/exists', { value: 'no such tag' })).json).toEqual({});
      const found = await post('/tags/search', { engines: { iterable: [{ query: 'ALPHA' }] } });
      expectWire('SearchedTags', found.json);
      expect(found.json.iterable[0]).toMatchObject({ tag: { text: 'alpha search' }, exact: false, similarity: 1 });
      const exact = await new TagsApi(server.sdk).searchTags({
        searchInput: { engines: { iterable: [{ query: 'alpha search', fullText: { exact: true } }] } },
      });
      expect(exact.iterable.map((s) => [s.tag!.text, s.exact])).toEqual([['alpha search', true]]);
    });

    it('renames a tag (POST /tag/update): every asset shows and is searched by the new text; another tag of that text is a 409', async () => {
      const asset = await newAsset('SELECT * FROM payments;', { tags: [{ text: 'old name' }] });
      const tag = (await assetJson(asset)).tags.iterable.find((t: { text: string }) => t.text === 'old name');
      await new TagsApi(server.sdk).tagsCreateNewTag({ seededTag: { text: 'taken' } });
      const before = await server.counts(['tags', 'asset_tags']);
      expectError(await post('/tag/update', { ...tag, text: 'taken' }), 409, /already has the text ..taken/);
      expect(await server.counts(['tags', 'asset_tags'])).toBe(before);
      const frames = await announced('/assets/stream/identifiers', 'asset', () =>
        post('/tag/update', { ...tag, text: 'new name', category: 'HANDLE' }),
      );
      expect(frames).toEqual([{ id: asset }]);
      const shown = await assetJson(asset);
      expect(shown.tags.iterable.find((t: { id: string }) => t.id === tag.id)).toMatchObject({
        text: 'new name',
        category: 'HANDLE',
      });
      const search = await new AssetsApi(server.sdk).searchAssets({ searchableTags: 'new name' });
      expect(search.iterable.map((s) => s.identifier)).toContain(asset);
    });

    it('deletes a tag: unlinked from every asset (announced), then 404', async () => {
      const asset = await newAsset('echo hi', { tags: [{ text: 'doomed tag' }] });
      const tag = (await assetJson(asset)).tags.iterable[0];
      const frames = await announced('/assets/stream/identifiers', 'asset', () =>
        new TagsApi(server.sdk).tagsDeleteSpecificTag({ tag: tag.id }),
      );
      expect(frames).toEqual([{ id: asset }]);
      expect((await assetJson(asset)).tags.iterable).toEqual([]);
      expect((await assetJson(asset)).tags.indices).toBeUndefined();
      expectError(await get(`/tag/${tag.id}`), 404, /tag .* not found/);
      expectError(await post(`/tags/${tag.id}/delete`), 404);
    });

    it('links and unlinks from the tag side, as from the asset side', async () => {
      const asset = await newAsset('let x = 1;');
      const tag = await new TagsApi(server.sdk).tagsCreateNewTag({ seededTag: { text: 'side' } });
      await new TagApi(server.sdk).tagAssociateAsset({ tag: tag.id, asset });
      expect((await assetJson(asset)).tags.iterable.map((t: { id: string }) => t.id)).toContain(tag.id);
      await new TagApi(server.sdk).tagDisassociateAsset({ tag: tag.id, asset });
      expect((await new TagApi(server.sdk).tagsSpecificTagSnapshot({ tag: tag.id })).assets!.iterable).toEqual([]);
    });

    it('refuses what cannot be a tag, writing nothing', async () => {
      const before = await server.counts(['tags', 'asset_tags']);
      expectError(await post('/tags/create', { text: '   ' }), 400, /tag text must not be empty/);
      expectError(await post('/tags/create', { text: 'x', asset: UNKNOWN }), 404);
      expectError(await post('/tags/create', { text: 'x', asset: 'not-a-uuid' }), 400);
      expectError(await post('/tags/create', { text: 'x', colour: 'red' }), 400);
      expectError(await post('/tag/update', { text: 'x' }), 400, /id must be the UUID of a tag/);
      expectError(await post('/tag/update', { id: UNKNOWN, text: 'x' }), 404);
      expectError(await get(`/tag/${UNKNOWN}`), 404);
      expect(await server.counts(['tags', 'asset_tags'])).toBe(before);
    });
  });

  describe('websites', () => {
    it('creates a website linked to an asset and a conversation: both list it, it lists both, and both are announced', async () => {
      const asset = await newAsset('fetch(url)');
      const conversation = await newConversation();
      const created = await post('/websites/create', {
        url: 'https://docs.example.com/fetch',
        name: 'fetch docs',
        asset,
        conversation,
      });
      expect(created.status).toBe(200);
      expectWire('Website', created.json);
      expect(created.json).toMatchObject({
        assets: { iterable: [{ id: asset }] },
        conversations: { iterable: [{ id: conversation }] },
      });
      expect((await assetJson(asset)).websites.iterable.map((w: { url: string }) => w.url)).toEqual([
        'https://docs.example.com/fetch',
      ]);
      expect((await conversationJson(conversation)).websites.iterable.map((w: { id: string }) => w.id)).toEqual([
        created.json.id,
      ]);
      const read = await new WebsiteApi(server.sdk).websitesSpecificWebsiteSnapshot({ website: created.json.id });
      expect(read.conversations!.iterable!.map((c) => c.id)).toEqual([conversation]);
      expectWire('Websites', (await get('/websites')).json);
      expect((await post('/websites/exists', { value: 'https://docs.example.com/fetch' })).json.website.id).toBe(
        created.json.id,
      );
      expect((await post('/websites/exists', { value: 'not a url' })).json).toEqual({});
      expectWire(
        'SearchedWebsites',
        (await post('/websites/search', { engines: { iterable: [{ query: 'fetch' }] } })).json,
      );
    });

    it('renames a website: the conversation showing it is announced with the new name; deleting unlinks both sides', async () => {
      const asset = await newAsset('curl https://x');
      const conversation = await newConversation();
      const website = await new WebsitesApi(server.sdk).websitesCreateNewWebsite({
        seededWebsite: { url: 'https://rename.example', name: 'before', asset, conversation },
      });
      const renamed = await announced('/conversations/stream/identifiers', 'conversation', () =>
        new WebsiteApi(server.sdk).websiteUpdate({ website: { ...website, name: 'after' } }),
      );
      expect(renamed).toEqual([{ id: conversation }]);
      expect((await conversationJson(conversation)).websites.iterable[0].reference.name).toBe('after');
      expect((await assetJson(asset)).websites.iterable[0].name).toBe('after');
      expectError(await post('/website/update', { ...website, url: 'ftp://nope' }), 400, /http\(s\)/);
      await new WebsitesApi(server.sdk).websitesDeleteSpecificWebsite({ website: website.id });
      expect((await conversationJson(conversation)).websites.iterable).toEqual([]);
      expect((await assetJson(asset)).websites.iterable).toEqual([]);
      expectError(await get(`/website/${website.id}`), 404);
    });
  });

  describe('annotations', () => {
    it('annotates an asset (searched by it) and a conversation; reads, updates and deletes them by id; lists both kinds', async () => {
      const asset = await newAsset('def f(): pass');
      const conversation = await newConversation();
      const onAsset = await new AnnotationsApi(server.sdk).annotationsCreateNewAnnotation({
        seededAnnotation: { asset, type: 'COMMENT', text: 'flamingo reconciliation trick' },
      });
      expect(onAsset.asset!.id).toBe(asset);
      const shown = await assetJson(asset);
      expect(shown.annotations.indices[onAsset.id]).toBeGreaterThanOrEqual(0);
      expect(
        (await new AssetsApi(server.sdk).searchAssets({ query: 'flamingo' })).iterable.map((s) => s.identifier),
      ).toContain(asset);
      const onConversation = await post('/annotations/create', { conversation, type: 'SUMMARY', text: 'a summary' });
      expectWire('RecordAnnotation', onConversation.json);
      expect((await conversationJson(conversation)).annotations.iterable.map((a: { id: string }) => a.id)).toEqual([
        onConversation.json.id,
      ]);
      const updated = await new AnnotationApi(server.sdk).annotationUpdate({
        annotation: { ...onAsset, type: 'DESCRIPTION', text: 'now a description' },
      });
      expect(updated).toMatchObject({ type: 'DESCRIPTION', text: 'now a description' });
      expect((await get(`/annotation/${onConversation.json.id}`)).json.text).toBe('a summary');
      const all = await get('/annotations');
      expectWire('Annotations', all.json);
      expect(all.json.iterable.map((a: { id: string }) => a.id)).toEqual(
        expect.arrayContaining([onAsset.id, onConversation.json.id]),
      );
      await new AnnotationsApi(server.sdk).annotationsDeleteSpecificAnnotation({ annotation: onConversation.json.id });
      await new AnnotationsApi(server.sdk).annotationsDeleteSpecificAnnotation({ annotation: onAsset.id });
      expectError(await get(`/annotation/${onAsset.id}`), 404);
      expect((await conversationJson(conversation)).annotations.iterable).toEqual([]);
    });

    it('refuses a seed naming neither or both owners, or an unknown one, writing nothing', async () => {
      const asset = await newAsset('x');
      const before = await server.counts(['annotations', 'conversation_annotations']);
      expectError(
        await post('/annotations/create', { type: 'COMMENT', text: 'x' }),
        400,
        /exactly one of asset and conversation/,
      );
      expectError(await post('/annotations/create', { type: 'COMMENT', text: 'x', asset, conversation: UNKNOWN }), 400);
      expectError(await post('/annotations/create', { type: 'COMMENT', text: 'x', conversation: UNKNOWN }), 404);
      expectError(await post('/annotations/create', { type: 'NOPE', text: 'x', asset }), 400);
      expectError(await post(`/annotations/${UNKNOWN}/delete`), 404);
      expect(await server.counts(['annotations', 'conversation_annotations'])).toBe(before);
    });
  });

  describe('activities', () => {
    it('stores what Obsidian reports (a referenced asset with its search query; its install, about no asset) and reads it back as sent', async () => {
      const asset = await newAsset('function referenced() {}');
      const referenced = {
        application: APPLICATION,
        mechanism: 'AUTOMATIC',
        asset: { id: asset },
        event: {
          asset: {
            asset: { id: asset },
            identifier_description_pair: { searched_asset_referenced: 'a_searched_asset_was_referenced_by_the_user' },
            metadata: { search: { query: 'referenced' } },
          },
        },
      };
      const created = await post('/activities/create?transferables=false', referenced);
      expect(created.status).toBe(200);
      expectWire('Activity', created.json);
      expect(created.json).toMatchObject({
        event: referenced.event,
        mechanism: 'AUTOMATIC',
        asset: { id: asset },
        application: { name: 'VS_CODE' },
      });
      const install = await new ActivitiesApi(server.sdk).activitiesCreateNewActivity({
        seededActivity: {
          application: APPLICATION,
          mechanism: 'AUTOMATIC',
          event: {
            adoption: { identifierDescriptionPair: { adoptionInstall: 'the_user_has_installed_a_pieces_application' } },
          },
        } as never,
      });
      expect(install.asset).toBeUndefined();
      expect(install.event.adoption!.identifierDescriptionPair!.adoptionInstall).toBe(
        'the_user_has_installed_a_pieces_application',
      );
      const all = await get('/activities');
      expectWire('AllActivities', all.json);
      expect(all.json.iterable.slice(0, 2).map((a: { id: string }) => a.id)).toEqual([install.id, created.json.id]);
      expect(
        (await new ActivityApi(server.sdk).activitiesSpecificActivitySnapshot({ activity: created.json.id })).event
          .asset!.metadata!.search!.query,
      ).toBe('referenced');
      expect((await get(`/asset/${asset}/activities`)).json.iterable.map((a: { id: string }) => a.id)).toContain(
        created.json.id,
      );
      expectWire('FlattenedActivities', (await get('/activity/identifiers')).json);
      await new ActivitiesApi(server.sdk).activitiesDeleteSpecificActivity({ activity: install.id });
      expectError(await get(`/activity/${install.id}`), 404);
    });

    it("lists activities as example-typescript's activity list reads them: each one with an asset has an asset event", async () => {
      const id = await newAsset('function searchedFor() { return 42; }', { name: 'searched for' });
      await new AssetsApi(server.sdk).searchAssets({ query: 'searchedFor' }); // records a search of it
      await new AssetApi(server.sdk).assetSnapshot({ asset: id }); // and a view
      const activities = await new ActivitiesApi(server.sdk).activitiesSnapshot({});
      const shown = activities.iterable
        .filter((a) => a.asset != null)
        .map((a) => ({ name: a.asset!.name, pair: a.event.asset!.identifierDescriptionPair }));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((a) => a.pair !== undefined)).toBe(true);
      const raw = (await get('/activities')).json.iterable;
      expect(raw.some((a: { event: { assets?: unknown } }) => a.event.assets)).toBe(true);
      expect(raw.filter((a: { event: { assets?: unknown }; asset?: unknown }) => a.event.assets && a.asset)).toEqual(
        [],
      );
    });

    it('refuses an activity about an unknown asset, or with no event, writing nothing', async () => {
      const before = await server.counts(['activities']);
      expectError(
        await post('/activities/create', { application: APPLICATION, asset: { id: UNKNOWN }, event: { asset: {} } }),
        404,
      );
      expectError(await post('/activities/create', { application: APPLICATION, event: {} }), 400, /one kind of event/);
      expectError(await post('/activities/create', { event: { asset: {} } }), 400);
      expect(await server.counts(['activities'])).toBe(before);
    });
  });

  describe('anchors and ranges', () => {
    it('lists anchors with their conversations, renames, moves and deletes one; its stream announces each change', async () => {
      const conversation = await newConversation();
      let anchorId = '';
      const created = await announced('/anchors/stream/identifiers', 'anchor', async () => {
        anchorId = (
          await new AnchorsApi(server.sdk).anchorsCreateNewAnchor({
            seededAnchor: { type: 'FILE', fullpath: '/home/me/project/main.py' },
          })
        ).id;
      });
      expect(created).toEqual([{ id: anchorId }]);
      await new ConversationApi(server.sdk).conversationAssociateAnchor({ conversation, anchor: anchorId });
      const read = await get(`/anchor/${anchorId}`);
      expectWire('AnchorRecord', read.json);
      expect(read.json.conversations.iterable).toEqual([{ id: conversation }]);
      expectWire('Anchors', (await get('/anchors')).json);
      const anchor = await new AnchorApi(server.sdk).anchorSpecificAnchorSnapshot({ anchor: anchorId });
      const point = anchor.points.iterable[0];
      const moved = await new AnchorApi(server.sdk).anchorUpdate({
        anchor: {
          ...anchor,
          name: 'entry',
          points: { iterable: [{ ...point, reference: { ...point.reference!, fullpath: '/home/me/project/app.py' } }] },
        },
      });
      expect(moved.name).toBe('entry');
      expect(moved.points.iterable[0].reference!.fullpath).toBe('/home/me/project/app.py');
      expect((await new AnchorApi(server.sdk).anchorRename({ anchor: anchorId })).name).toBe('app.py');
      const asPoint = await new AnchorPointApi(server.sdk).anchorPointSpecificAnchorPointSnapshot({
        anchorPoint: point.id,
      });
      expect(asPoint).toMatchObject({ id: point.id, fullpath: '/home/me/project/app.py', anchor: { id: anchorId } });
      expectWire('AnchorPoints', (await get('/anchor_points')).json);
      expect((await new AnchorPointsApi(server.sdk).anchorPointsSnapshot()).iterable.map((p) => p.id)).toContain(
        point.id,
      );
      const deleted = await announced('/anchors/stream/identifiers', 'anchor', () =>
        new AnchorsApi(server.sdk).anchorsDeleteSpecificAnchor({ anchor: anchorId }),
      );
      expect(deleted).toEqual([{ id: anchorId, deleted: true }]);
      expect((await conversationJson(conversation)).anchors.iterable).toEqual([]);
      expectError(await get(`/anchor/${anchorId}`), 404);
      expectError(await get(`/anchor_point/${point.id}`), 404);
    });

    it('creates a range grounding a conversation (as the Python SDK does), reads, updates and deletes it; announced on its stream', async () => {
      const conversation = await newConversation();
      const from = new Date(Date.now() - 15 * 60_000);
      const to = new Date();
      let rangeId = '';
      const frames = await announced('/ranges/stream/identifiers', 'range', async () => {
        rangeId = (
          await new RangesApi(server.sdk).rangesCreateNewRange({
            seededRange: {
              from: { value: from },
              to: { value: to },
              conversation: { reference: { id: conversation } },
            },
          })
        ).id;
      });
      expect(frames).toEqual([{ id: rangeId }]);
      const range = await get(`/range/${rangeId}`);
      expectWire('Range', range.json);
      expect(range.json).toMatchObject({
        from: { value: from.toISOString() },
        to: { value: to.toISOString() },
        between: false,
        conversations: { iterable: [{ id: conversation }] },
      });
      expect((await conversationJson(conversation)).grounding.temporal.workstreams.iterable).toEqual([{ id: rangeId }]);
      expectWire('Ranges', (await get('/ranges')).json);
      const sdkRange = await new RangeApi(server.sdk).rangesSpecificRangeSnapshot({ range: rangeId });
      expect((await new RangeApi(server.sdk).rangeUpdate({ range: { ...sdkRange, between: true } })).between).toBe(
        true,
      );
      expectError(
        await post('/ranges/create', { from: { value: to.toISOString() }, to: { value: from.toISOString() } }),
        400,
        /must not end before it starts/,
      );
      await new RangesApi(server.sdk).rangesDeleteSpecificRange({ range: rangeId });
      expect((await conversationJson(conversation)).grounding.temporal.workstreams.iterable).toEqual([]);
      expectError(await get(`/range/${rangeId}`), 404);
    });
  });

  describe('messages and formats', () => {
    it('appends a message (POST /messages/create), lists messages, changes a sentiment', async () => {
      const conversation = await newConversation();
      const message = await new ConversationMessagesApi(server.sdk).messagesCreateSpecificMessage({
        seededConversationMessage: {
          role: 'USER',
          fragment: { string: { raw: 'what is a ledger?' } },
          conversation: { id: conversation },
        },
      });
      expect((await conversationJson(conversation)).messages.indices).toEqual({ [message.id]: 0 });
      const all = await get('/messages');
      expectWire('AllMessages', all.json);
      expect(all.json.iterable[0]).toMatchObject({
        id: message.id,
        fragment: { string: { raw: 'what is a ledger?' } },
      });
      expect((await get('/messages?transferables=false')).json.iterable[0].fragment).toBeUndefined();
      const liked = await post('/message/update', { ...(await get(`/message/${message.id}`)).json, sentiment: 'LIKE' });
      expect(liked.json).toMatchObject({ sentiment: 'LIKE', fragment: { string: { raw: 'what is a ledger?' } } });
      expectError(
        await post('/messages/create', { role: 'USER', fragment: { string: { raw: 'x' } } }),
        400,
        /conversation.id/,
      );
      expectError(
        await post('/messages/create', {
          role: 'USER',
          fragment: { string: { raw: 'x' } },
          conversation: { id: UNKNOWN },
        }),
        404,
      );
    });

    it('relabels one format (POST /format/reclassify, as Obsidian sends it) and lists every format', async () => {
      const asset = await newAsset('print("hello")');
      const format = await new FormatApi(server.sdk).formatSnapshot({
        format: (await assetJson(asset)).formats.iterable[0].id,
        transferable: true,
      });
      const relabelled = await new FormatApi(server.sdk).formatReclassify({
        formatReclassification: { ext: 'rb', format },
      });
      expect(relabelled.classification.specific).toBe('rb');
      expect((await assetJson(asset)).original.reference.classification.specific).toBe('rb');
      expectError(await post('/format/reclassify', { ext: 'png', format }), 400, /not a text language/);
      expectError(await post('/format/reclassify', { ext: 'py', format: { ...format, id: UNKNOWN } }), 404);
      const formats = await new FormatsApi(server.sdk).formatsSnapshot();
      expect(formats.iterable.map((f) => f.id)).toContain(format.id);
    });
  });

  describe('what an asset links to, read record by record (Raycast, Obsidian)', () => {
    it("fetches each tag, website and annotation of an asset by its `indices`, as Raycast's fetchAsset does", async () => {
      const id = await newAsset('const indexed = true;', {
        tags: [{ text: 'one' }, { text: 'two' }],
        websites: [{ url: 'https://one.example', name: 'one' }],
        annotations: [{ type: 'DESCRIPTION', text: 'indexed description' }],
      });
      const asset = await new AssetApi(server.sdk).assetSnapshot({ asset: id, transferables: false });
      const tags = await Promise.all(
        Object.keys(asset.tags!.indices!).map((tag) => new TagApi(server.sdk).tagsSpecificTagSnapshot({ tag })),
      );
      const websites = await Promise.all(
        Object.keys(asset.websites!.indices!).map((website) =>
          new WebsiteApi(server.sdk).websitesSpecificWebsiteSnapshot({ website }),
        ),
      );
      const annotations = await Promise.all(
        Object.keys(asset.annotations!.indices!).map((annotation) =>
          new AnnotationApi(server.sdk).annotationSpecificAnnotationSnapshot({ annotation }),
        ),
      );
      expect(tags.map((t) => t.text).sort()).toEqual(['one', 'two']);
      expect(websites.map((w) => w.url)).toEqual(['https://one.example/']);
      expect(annotations.map((a) => a.text)).toContain('indexed description');
    });
  });

  describe('persons (Trove holds none) and sensitives (none in a store without secrets; sensitives.spec.ts)', () => {
    it('lists none, answers 404 for an id, and their streams send an empty first frame', async () => {
      expectWire('NoRecords', (await get('/persons')).json);
      expectWire('NoRecords', (await get('/sensitives')).json);
      expect((await new PersonsApi(server.sdk).personsSnapshot()).iterable).toEqual([]);
      expect((await new SensitivesApi(server.sdk).sensitivesSnapshot()).iterable).toEqual([]);
      expect((await post('/persons/search', { engines: { iterable: [{ query: 'x' }] } })).json).toEqual({
        iterable: [],
      });
      expectError(await get(`/person/${UNKNOWN}`), 404, /Trove keeps no person records/);
      expectError(await get(`/sensitive/${UNKNOWN}`), 404, /sensitive 0a0b0c0d-0000-4000-8000-00000000dead not found/);
      for (const path of ['/persons/stream/identifiers', '/sensitives/stream/identifiers']) {
        const client = await StreamClient.open(server.baseUrl, path);
        expect(await client.next()).toEqual({ iterable: [] });
        client.socket.close();
      }
      expect(await statusOf(new PersonsApi(server.sdk).personsCreateNewPerson({ seededPerson: { type: {} } }))).toBe(
        501,
      );
    });
  });
});

describe('a renamed tag on another instance', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startTestServer();
    second = await startTestServer({}, { shareWith: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("shows the new text at once: asset reads check each tag's version, so no instance serves its old copy", async () => {
    const id = (
      await new AssetsApi(first.sdk).assetsCreateNewAsset({ seed: textSeed('x = 1', { tags: [{ text: 'before' }] }) })
    ).id;
    // The second instance reads the asset, keeping the tag's record in memory.
    expect((await http(second.baseUrl, 'GET', `/asset/${id}`)).json.tags.iterable[0].text).toBe('before');
    const tag = (await http(first.baseUrl, 'GET', `/asset/${id}`)).json.tags.iterable[0];
    expect((await http(first.baseUrl, 'POST', '/tag/update', { ...tag, text: 'after' })).status).toBe(200);
    expect((await http(second.baseUrl, 'GET', `/asset/${id}`)).json.tags.iterable[0].text).toBe('after');
  });
});
