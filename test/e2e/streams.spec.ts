import { AssetApi, AssetsApi, ConversationApi, ConversationsApi } from '@pieces.app/pieces-os-client';
import WebSocket from 'ws';
import { OutboxReader } from '../../src/common/events/outbox.reader';
import { StreamHub } from '../../src/modules/streams/stream-hub';
import { http } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, startTestServer } from './support/server';
import { expectWire } from './support/wire';
import { StreamClient, refusedUpgrade, upgradeAnswer } from './support/ws';
import { ConfigError, loadConfig } from '../../src/common/config/app-config';

const ids = (frame: { iterable: Record<string, { id: string }>[] }, key = 'asset') =>
  frame.iterable.map((i) => i[key].id);

describe('change streams (WebSocket)', () => {
  let server: TestServer;
  let assets: AssetsApi;
  let asset: AssetApi;
  let conversations: ConversationsApi;
  let conversation: ConversationApi;
  const open = (path: string, options?: { raw?: boolean; headers?: Record<string, string> }) =>
    StreamClient.open(server.baseUrl, path, options);
  const create = (raw: string, metadata: Record<string, unknown> = {}) =>
    assets.assetsCreateNewAsset({ seed: textSeed(raw, metadata) });
  /** Every client opened by a test is closed after it. */
  let clients: StreamClient[] = [];
  const track = async (client: Promise<StreamClient>) => {
    const c = await client;
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer({
      // short enough for the health test's three frames, long enough that a client busy for a
      // moment on a loaded CI machine is not dropped as dead (250 ms dropped one mid-test)
      TROVE_WS_HEARTBEAT_MS: '500',
      TROVE_WS_MAX_PAYLOAD: '4096',
      TROVE_CORS_ORIGINS: 'http://localhost,http://app.example:8080',
    });
    assets = new AssetsApi(server.sdk);
    asset = new AssetApi(server.sdk);
    conversations = new ConversationsApi(server.sdk);
    conversation = new ConversationApi(server.sdk);
  });
  afterEach(() => {
    clients.forEach((c) => c.socket.terminate());
    clients = [];
  });
  afterAll(() => server.close());

  it('sends one first frame even when there is nothing: {"iterable": []} on every identifier stream', async () => {
    for (const path of [
      '/assets/stream/identifiers',
      '/conversations/stream/identifiers',
      '/assets/stream',
      '/assets/stream/transferables',
    ]) {
      const client = await track(open(path));
      expect(await client.next()).toEqual({ iterable: [] });
      await client.quiet(100);
    }
  });

  it('model identifiers: the listed models first (the offline engine), then a frame per custom model created and deleted', async () => {
    const listed = (await http(server.baseUrl, 'GET', '/models')).json.iterable.map((m: { id: string }) => m.id);
    const client = await track(open('/models/stream/identifiers'));
    const snapshot = await client.next();
    expect(ids(snapshot, 'model')).toEqual(listed);
    expect(listed.length).toBeGreaterThanOrEqual(1);
    const seeded = {
      version: '1',
      created: { value: '2024-01-01T00:00:00.000Z', readable: 'Jan 1, 2024' },
      name: 'Streamed',
      cloud: false,
      type: 'BALANCED',
      usage: 'CODE_CONVERSATION',
      configuration: { base: 'offline' },
    };
    const created = await http(server.baseUrl, 'POST', '/models/create', seeded);
    expect(created.status).toBe(200);
    expect(await client.next()).toEqual({ iterable: [{ model: { id: created.json.id } }] });
    expect((await http(server.baseUrl, 'POST', `/models/${created.json.id}/delete`)).status).toBeLessThan(300);
    expect(await client.next()).toEqual({ iterable: [{ model: { id: created.json.id }, deleted: true }] });
  });

  it('/.well-known/stream/health sends "ok" on open and then periodically', async () => {
    const client = await track(open('/.well-known/stream/health', { raw: true }));
    const frames = await client.take<string>(3, 3000);
    for (const frame of frames) expect(frame.startsWith('ok')).toBe(true);
  });

  it('asset identifiers: snapshot most recent first, then one frame per change, deleted:true on delete, in order', async () => {
    const first = await create('const first = 1;');
    const second = await create('const second = 2;');
    const client = await track(open('/assets/stream/identifiers'));
    const snapshot = await client.next();
    expect(ids(snapshot).slice(0, 2)).toEqual([second.id, first.id]);
    expect(ids(snapshot)).toEqual((await assets.assetsIdentifiersSnapshot()).iterable!.map((a) => a.id));

    const tagged = await create('def tagged(): pass', { tags: [{ text: 'stream-tag' }] });
    const tagId = tagged.tags!.iterable[0].id;
    const full = await asset.assetSnapshot({ asset: first.id });
    await asset.assetUpdate({ asset: { ...full, name: 'renamed' } });
    await asset.assetAssociateTag({ asset: first.id, tag: tagId });
    await asset.assetAssociateTag({ asset: first.id, tag: tagId }); // no change: no frame
    await asset.assetDisassociateTag({ asset: first.id, tag: tagId });
    expect(
      (await http(server.baseUrl, 'POST', '/asset/reclassify', { ext: 'py', asset: { id: second.id } })).status,
    ).toBe(200);
    await asset.assetScoresIncrement({ asset: second.id, seededScoreIncrement: { asset: { reuse: true } } });
    await assets.assetsDeleteAsset({ asset: second.id });

    const expected = [
      { iterable: [{ asset: { id: tagged.id } }] }, // create
      { iterable: [{ asset: { id: first.id } }] }, // update
      { iterable: [{ asset: { id: first.id } }] }, // tag associated
      { iterable: [{ asset: { id: first.id } }] }, // tag disassociated
      { iterable: [{ asset: { id: second.id } }] }, // reclassified
      { iterable: [{ asset: { id: second.id } }] }, // scores
      { iterable: [{ asset: { id: second.id }, deleted: true }] }, // delete
    ];
    expect(await client.take(expected.length)).toEqual(expected);
    await client.quiet();
  });

  it('leaves pseudo assets out, as the first frame does, until they become real assets', async () => {
    const client = await track(open('/assets/stream/identifiers?ids=true'));
    const first = await client.next();
    const pseudo = await http(server.baseUrl, 'POST', '/assets/create', {
      asset: { pseudo: true, format: { fragment: { string: { raw: 'pseudo body' } } } },
    });
    expect(pseudo.status).toBe(200);
    expect(ids(first)).not.toContain(pseudo.json.id);
    const real = await create('real = True');
    let next = await client.next();
    while (next.iterable[0].asset.id !== real.id && next.iterable[0].asset.id !== pseudo.json.id)
      next = await client.next(); // classifier refinements
    expect(next.iterable).toEqual([{ asset: { id: real.id } }]); // nothing for the pseudo asset before it
    await asset.assetUpdate({ asset: { ...(await asset.assetSnapshot({ asset: pseudo.json.id })), pseudo: false } });
    next = await client.next();
    while (next.iterable[0].asset.id !== pseudo.json.id) next = await client.next();
    expect(next.iterable).toEqual([{ asset: { id: pseudo.json.id } }]);
    // A socket catching up from before both: whether a change is shown is decided when its
    // frame is made, and the asset is real by now, so its pseudo-time create shows up too.
    // (Earlier tests' creates may still be refined by the classifier meanwhile: only these two ids count.)
    const replay = await track(open(`/assets/stream/identifiers?since=${first.event_id}`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const replayed = (replay.frames as { iterable: { asset: { id: string } }[] }[])
      .map((f) => f.iterable[0].asset.id)
      .filter((id) => id === real.id || id === pseudo.json.id);
    expect(replayed).toEqual([pseudo.json.id, real.id, pseudo.json.id]);
  });

  it('conversation identifiers: create, update, link (also announced on the asset stream), delete', async () => {
    const target = await create('SELECT 1;');
    const convs = await track(open('/conversations/stream/identifiers'));
    const before = await convs.next();
    const assetsClient = await track(open('/assets/stream/identifiers'));
    await assetsClient.next();

    const created = await conversations.conversationsCreateSpecificConversation({
      seededConversation: { type: 'COPILOT', name: 'streamed' } as never,
    });
    expect(ids(await convs.next(), 'conversation')).toEqual([created.id]);
    await conversation.conversationUpdate({ conversation: { ...created, name: 'renamed chat' } });
    await conversation.conversationAssociateAsset({ conversation: created.id, asset: target.id });
    await conversations.conversationsDeleteSpecificConversation({ conversation: created.id });
    expect(await convs.take(3)).toEqual([
      { iterable: [{ conversation: { id: created.id } }] },
      { iterable: [{ conversation: { id: created.id } }] },
      { iterable: [{ conversation: { id: created.id }, deleted: true }] },
    ]);
    // Linking changed the asset's conversations; deleting the conversation too.
    expect(await assetsClient.take(2)).toEqual([
      { iterable: [{ asset: { id: target.id } }] },
      { iterable: [{ asset: { id: target.id } }] },
    ]);
    await convs.quiet();

    const again = await track(open('/conversations/stream/identifiers'));
    expect(ids(await again.next(), 'conversation')).toEqual(ids(before, 'conversation'));
  });

  it('/assets/stream and /assets/stream/transferables: full Assets frames, without and with format content', async () => {
    const existing = await create('print("full frames")');
    const plain = await track(open('/assets/stream'));
    const withContent = await track(open('/assets/stream/transferables'));
    const [snapPlain, snapFull] = [await plain.next(), await withContent.next()];
    const inPlain = snapPlain.iterable.find((a: { id: string }) => a.id === existing.id);
    const inFull = snapFull.iterable.find((a: { id: string }) => a.id === existing.id);
    expect(inPlain.formats.iterable[0].fragment).toBeUndefined();
    expect(inFull.formats.iterable[0].fragment.string.raw).toBe('print("full frames")');

    const made = await create('echo streamed');
    const [plainFrame, fullFrame] = [await plain.next(), await withContent.next()];
    expect(plainFrame.iterable).toHaveLength(1);
    expect(plainFrame.iterable[0].id).toBe(made.id);
    expect(plainFrame.iterable[0].formats.iterable[0].fragment).toBeUndefined();
    expect(fullFrame.iterable[0].formats.iterable[0].fragment.string.raw).toBe('echo streamed');
    expect(fullFrame.iterable[0].preview.base.id).toBeDefined();
    for (const frame of [snapPlain, snapFull, plainFrame, fullFrame]) expectWire('Assets', frame);

    await assets.assetsDeleteAsset({ asset: made.id });
    expect(await plain.next()).toEqual({ iterable: [], indices: { [made.id]: -1 } });
    expect(await withContent.next()).toEqual({ iterable: [], indices: { [made.id]: -1 } });
  });

  it('?ids=true puts the event id on every frame; ?since= resumes after a forced disconnect with no gap and no duplicate', async () => {
    const first = await track(open('/assets/stream/identifiers?ids=true'));
    const snapshot = await first.next();
    expect(Number.isInteger(snapshot.event_id)).toBe(true);
    const a = await create('let a = 1;');
    const frameA = await first.next();
    expect(frameA).toEqual({ iterable: [{ asset: { id: a.id } }], event_id: expect.any(Number) });
    expect(frameA.event_id).toBeGreaterThan(snapshot.event_id);
    first.socket.terminate(); // the client vanishes

    const missed = [await create('let b = 2;'), await create('let c = 3;')];
    await assets.assetsDeleteAsset({ asset: a.id });
    const resumed = await track(open(`/assets/stream/identifiers?ids=true&since=${frameA.event_id}`));
    const frames = await resumed.take(3);
    expect(frames.map((f) => f.iterable[0])).toEqual([
      { asset: { id: missed[0].id } },
      { asset: { id: missed[1].id } },
      { asset: { id: a.id }, deleted: true },
    ]);
    const eventIds = frames.map((f) => f.event_id);
    expect(eventIds[0]).toBeGreaterThan(frameA.event_id);
    expect([...eventIds].sort((x, y) => x - y)).toEqual(eventIds);
    // ...and goes on live without repeating anything.
    const d = await create('let d = 4;');
    const live = await resumed.next();
    expect(live.iterable).toEqual([{ asset: { id: d.id } }]);
    expect(live.event_id).toBeGreaterThan(eventIds[2]);
    await resumed.quiet();

    // Without ids the frames are exactly the documented shape.
    const plain = await track(open(`/assets/stream/identifiers?since=${frameA.event_id}`));
    expect(await plain.next()).toEqual({ iterable: [{ asset: { id: missed[0].id } }] });
  });

  it('resuming from an event that is too old or unknown closes with a resync reason; a bad since is refused', async () => {
    await create('var kept = true;');
    const [{ head }] = await server.sql<{ head: number }>('SELECT MAX(id) AS head FROM stream_events');
    const future = await open(`/assets/stream/identifiers?since=${Number(head) + 1000}`);
    expect(await future.closed).toEqual({ code: 4000, reason: 'resync' });

    // Prune everything but the newest event (as the retention would, much later).
    expect(await server.app.get(OutboxReader).prune(new Date(Date.now() + 60_000).toISOString())).toBeGreaterThan(0);
    const old = await open('/assets/stream/identifiers?since=0');
    expect(await old.closed).toEqual({ code: 4000, reason: 'resync' });
    const fresh = await track(open(`/assets/stream/identifiers?ids=true&since=${Number(head) - 1}`));
    expect((await fresh.next()).event_id).toBe(Number(head));

    const bad = await open('/assets/stream/identifiers?since=abc');
    expect((await bad.closed).code).toBe(1008);
  });

  it('refuses an oversized incoming message with 1009 and stays up', async () => {
    const client = await open('/assets/stream/identifiers');
    await client.next();
    client.socket.send('x'.repeat(5000));
    expect((await client.closed).code).toBe(1009);
    const other = await track(open('/assets/stream/identifiers'));
    expect(Array.isArray((await other.next()).iterable)).toBe(true);
    expect((await http(server.baseUrl, 'GET', '/.well-known/health')).status).toBe(200);
    // A small message is fine (and ignored).
    other.socket.send('{"hello": true}');
    await other.quiet(200);
    expect(other.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('checks Origin on upgrade (403 for a foreign origin) and answers unknown paths with a JSON 404', async () => {
    expect(await refusedUpgrade(`${server.baseUrl}/assets/stream/identifiers`, { Origin: 'http://evil.example' })).toBe(
      403,
    );
    const allowed = await track(open('/assets/stream/identifiers', { headers: { Origin: 'http://app.example:8080' } }));
    expect((await allowed.next()).iterable).toBeDefined();
    const local = await track(open('/assets/stream/identifiers', { headers: { Origin: 'http://localhost:5173' } }));
    expect((await local.next()).iterable).toBeDefined();
    const unknown = await upgradeAnswer(`${server.baseUrl}/assets/stream/nope`);
    expect(unknown).toMatchObject({
      status: 404,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      json: { statusCode: 404, error: 'Not Found', message: 'no WebSocket stream at /assets/stream/nope' },
    });
  });

  it('drops a peer that stops answering pings', async () => {
    const hub = server.app.get(StreamHub);
    const settle = Date.now() + 2000; // the sockets of earlier tests are gone
    while (hub.size > 0 && Date.now() < settle) await new Promise((r) => setTimeout(r, 20));
    const before = hub.size;
    const client = await track(open('/assets/stream/identifiers'));
    await client.next();
    expect(hub.size).toBe(before + 1);
    (client.socket as unknown as { _socket: { pause(): void } })._socket.pause(); // reads nothing, answers nothing
    const deadline = Date.now() + 3000;
    while (hub.size > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(hub.size).toBe(before);
  });
});

describe('change streams: configuration', () => {
  it('validates the stream and socket settings at start', () => {
    const config = loadConfig({
      TROVE_STREAM_RETENTION_HOURS: '2',
      TROVE_STREAM_POLL_MS: '250',
      TROVE_REDIS_URL: 'redis://127.0.0.1:6379',
      TROVE_WS_SEND_BUFFER: '65536',
      TROVE_WS_MAX_PAYLOAD: '2048',
      TROVE_WS_HEARTBEAT_MS: '1000',
    });
    expect([
      config.streamRetentionHours,
      config.streamPollMs,
      config.redisUrl,
      config.wsSendBuffer,
      config.wsMaxPayload,
      config.wsHeartbeatMs,
    ]).toEqual([2, 250, 'redis://127.0.0.1:6379', 65536, 2048, 1000]);
    const defaults = loadConfig({});
    expect([
      defaults.streamRetentionHours,
      defaults.streamPollMs,
      defaults.redisUrl,
      defaults.wsSendBuffer,
      defaults.wsMaxPayload,
      defaults.wsHeartbeatMs,
    ]).toEqual([168, 1000, null, 4 * 1024 * 1024, 1024 * 1024, 30000]);
    let error: unknown;
    try {
      loadConfig({
        TROVE_STREAM_RETENTION_HOURS: '0',
        TROVE_STREAM_POLL_MS: 'fast',
        TROVE_REDIS_URL: 'http://x',
        TROVE_WS_SEND_BUFFER: '-1',
        TROVE_WS_MAX_PAYLOAD: '1',
        TROVE_WS_HEARTBEAT_MS: '5',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of [
      'TROVE_STREAM_RETENTION_HOURS',
      'TROVE_STREAM_POLL_MS',
      'TROVE_REDIS_URL',
      'TROVE_WS_SEND_BUFFER',
      'TROVE_WS_MAX_PAYLOAD',
      'TROVE_WS_HEARTBEAT_MS',
    ]) {
      expect((error as Error).message).toContain(name);
    }
  });
});

describe('change streams: a slow consumer', () => {
  let server: TestServer;
  const BOUND = 1024 * 1024;
  beforeAll(async () => {
    server = await startTestServer({ TROVE_WS_SEND_BUFFER: String(BOUND) });
  });
  afterAll(() => server.close());

  it('is closed with 1013 once its send buffer passes the bound, never holding more; it resumes with since', async () => {
    const asset = new AssetApi(server.sdk);
    const big = 'x'.repeat(200 * 1024);
    const made = await new AssetsApi(server.sdk).assetsCreateNewAsset({
      seed: {
        ...textSeed(big),
        asset: {
          ...textSeed(big).asset!,
          format: { fragment: { string: { raw: big } }, classification: { generic: 'TEXT', specific: 'txt' } },
        },
      } as never,
    });
    const fast = await StreamClient.open(server.baseUrl, '/assets/stream/transferables?ids=true');
    const slow = await StreamClient.open(server.baseUrl, '/assets/stream/transferables?ids=true');
    await fast.next();
    await slow.next();
    const underlying = (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    underlying.pause();
    const changes = 80;
    // One change at a time, each read by the fast client before the next: under load (PostgreSQL's
    // notifications arrive in bursts) the fast client must never be the one that falls behind.
    const fastFrames: { iterable: { id: string }[]; event_id: number }[] = [];
    for (let i = 0; i < changes; i++) {
      await asset.assetScoresIncrement({ asset: made.id, seededScoreIncrement: { asset: { reuse: true } } });
      fastFrames.push(...((await fast.take(1, 30000)) as typeof fastFrames));
    }
    expect(fastFrames.every((f) => f.iterable[0].id === made.id)).toBe(true);

    const hub = server.app.get(StreamHub);
    expect(hub.stats.slowClosed).toBe(1);
    const frameSize = Buffer.byteLength(JSON.stringify(fastFrames[0]));
    expect(hub.stats.peakBuffered).toBeLessThanOrEqual(BOUND + frameSize);

    underlying.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(1013);
    const since = Number(/since=(\d+)/.exec(closed.reason)![1]);
    const got = slow.frames.slice(1) as { event_id: number }[];
    expect(got.length).toBeLessThan(changes);
    expect(got.length === 0 ? since : got[got.length - 1].event_id).toBe(since);

    // Resuming delivers exactly the rest.
    const resumed = await StreamClient.open(server.baseUrl, `/assets/stream/transferables?ids=true&since=${since}`);
    const rest = await resumed.take(changes - got.length, 30000);
    expect([...got, ...rest].map((f) => f.event_id)).toEqual(fastFrames.map((f) => f.event_id));
    await resumed.quiet(200);
    fast.close();
    resumed.close();
  });
});

describe('change streams: shutdown', () => {
  it('closes every socket with 1001 when the app stops', async () => {
    const server = await startTestServer();
    const client = await StreamClient.open(server.baseUrl, '/conversations/stream/identifiers');
    await client.next();
    const closing = server.close();
    expect((await client.closed).code).toBe(1001);
    await closing;
  });
});
