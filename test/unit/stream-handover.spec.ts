import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { StreamEvent, StreamTopicName } from '../../src/common/events/outbox';
import { StreamHub } from '../../src/modules/streams/stream-hub';

/**
 * The hand-over of a stream socket from its first frame (or `?since=`) to the live events,
 * with the outbox, the database and the sockets in memory: every event after the socket's
 * starting point arrives once, in order, whether the socket read it while catching up or got it
 * from the tailer. (StreamHub has no pure cursor function: this drives its public surface,
 * attach and wake, with fakes for its collaborators.)
 */

const OPEN = 1;
const CLOSED = 3;

class FakeSocket extends EventEmitter {
  constructor(private readonly firstFrame: boolean) {
    super();
  }
  readyState = OPEN;
  bufferedAmount = 0;
  frames: any[] = [];
  closed: { code: number; reason: string } | null = null;
  send(data: string | Buffer) {
    this.frames.push(JSON.parse(String(data)));
  }
  close(code: number, reason: string) {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSED;
    this.closed = { code, reason };
    this.emit('close');
  }
  terminate() {
    this.close(1006, '');
  }
  ping() {}
  /** Ids of the change frames (with ?ids=true every frame carries event_id; the first frame's is the head it reflects). */
  get eventIds() {
    return (this.firstFrame ? this.frames.slice(1) : this.frames).map((f) => f.event_id);
  }
}

/**
 * An outbox in memory. `pause()` makes the next read wait until let go; `late` decides what it
 * then returns: the events as they are when let go (a query queued behind others), or as they
 * were when it was called (a query that ran, its result waiting for the event loop).
 */
class FakeOutbox {
  events: StreamEvent[] = [];
  private gate: { opened: Promise<void>; late: boolean } | null = null;
  append(topic: StreamTopicName, entityId: string, deleted = false) {
    const id = this.events.length + 1;
    this.events.push({ id, topic, entityId, deleted });
    return id;
  }
  pause(late: boolean): () => void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, late };
    return open;
  }
  async head() {
    return this.events.length;
  }
  async after(_em: unknown, from: number, limit: number) {
    const gate = this.gate;
    this.gate = null;
    const early = this.events.filter((e) => e.id > from).slice(0, limit);
    if (gate) await gate.opened;
    return gate?.late ? this.events.filter((e) => e.id > from).slice(0, limit) : early;
  }
  async prunedThrough() {
    return 0;
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

function setUp() {
  const outbox = new FakeOutbox();
  const hidden = new Set<string>();
  const em = {};
  const db = {
    read: (work: (em: object) => unknown) => work(em),
    readConsistent: (work: (em: object) => unknown) => work(em),
  };
  const ids: Record<string, string[]> = { assets: [], conversations: [], models: [] };
  const topics = {
    get: (name: StreamTopicName) => ({
      name,
      key: name.slice(0, -1),
      page: async () => ({ items: ids[name], next: null }),
    }),
    hidden: async (_em: unknown, events: StreamEvent[]) =>
      new Set(events.map((e) => `${e.topic}:${e.entityId}`).filter((k) => hidden.has(k))),
  };
  const config = { wsHeartbeatMs: 60_000, wsSendBuffer: 1 << 20 };
  const hub = new StreamHub(
    config as never,
    db as never,
    outbox as never,
    topics as never,
    {} as never,
    { id: 'local' } as never,
    {} as never,
  );
  const attach = (path: string, query = '?ids=true') => {
    const socket = new FakeSocket(!query.includes('since='));
    hub.attach(socket as never, { url: `${path}${query}` } as IncomingMessage, path);
    return socket;
  };
  return { hub, outbox, hidden, ids, attach };
}

const ASSET_IDS = '/assets/stream/identifiers';
const CONVERSATION_IDS = '/conversations/stream/identifiers';

describe('stream hand-over from the first frame to live events', () => {
  // The fake sockets lack the `ws` internals the pre-framed writes use: the hub says so once, and sends.
  beforeAll(() => Logger.overrideLogger(['error']));
  it('sends the first frame as of the outbox head, then each later event once, hidden ones skipped', async () => {
    const { hub, outbox, hidden, ids, attach } = setUp();
    outbox.append('assets', 'a1');
    ids.assets = ['a1'];
    await hub.onApplicationBootstrap();
    const socket = attach(ASSET_IDS);
    await settle();
    expect(socket.frames).toEqual([{ iterable: [{ asset: { id: 'a1' } }], event_id: 1 }]);

    outbox.append('assets', 'a2');
    outbox.append('assets', 'pseudo');
    hidden.add('assets:pseudo');
    outbox.append('conversations', 'c1'); // another topic
    outbox.append('assets', 'a1', true);
    hub.wake();
    await settle();
    expect(socket.frames.slice(1)).toEqual([
      { iterable: [{ asset: { id: 'a2' } }], event_id: 2 },
      { iterable: [{ asset: { id: 'a1' }, deleted: true }], event_id: 5 },
    ]);
    await hub.beforeApplicationShutdown();
    expect(socket.closed?.code).toBe(1001);
  });

  it('an event the tailer hands out while a socket catches up (?since=) reaches it once, from the outbox', async () => {
    const { hub, outbox, attach } = setUp();
    outbox.append('assets', 'a1');
    outbox.append('assets', 'a2');
    await hub.onApplicationBootstrap();
    const release = outbox.pause(false); // the socket's first catch-up read (events 1 and 2) is slow to come back
    const socket = attach(ASSET_IDS, '?since=0&ids=true');
    await settle();
    outbox.append('assets', 'a3');
    hub.wake(); // the tailer reads event 3 and moves on: the socket is not live yet
    await settle();
    expect(socket.eventIds).toEqual([]);
    release(); // 1 and 2 sent; the socket is behind the tailer (3): it reads again, then goes live
    await settle();
    expect(socket.eventIds).toEqual([1, 2, 3]);
    outbox.append('assets', 'a4');
    hub.wake();
    await settle();
    expect(socket.eventIds).toEqual([1, 2, 3, 4]);
    await hub.beforeApplicationShutdown();
  });

  it('a socket that went live while the tailer prepared a batch without its view reads that batch itself, once', async () => {
    const { hub, outbox, attach } = setUp();
    await hub.onApplicationBootstrap();
    const watcher = attach(CONVERSATION_IDS);
    await settle();
    const release = outbox.pause(true);
    hub.wake(); // the tailer's read starts: only the conversations view is watched
    await settle();
    const late = attach(ASSET_IDS);
    await settle();
    expect(late.frames).toEqual([{ iterable: [], event_id: 0 }]); // live from head 0
    outbox.append('assets', 'a1');
    outbox.append('conversations', 'c1');
    release(); // the tailer's batch holds both events, with frames for conversations only
    await settle();
    expect(late.eventIds).toEqual([1]);
    expect(watcher.eventIds).toEqual([2]);
    outbox.append('assets', 'a2');
    hub.wake();
    await settle();
    expect(late.eventIds).toEqual([1, 3]);
    expect(late.frames.slice(1)).toEqual([
      { iterable: [{ asset: { id: 'a1' } }], event_id: 1 },
      { iterable: [{ asset: { id: 'a2' } }], event_id: 3 },
    ]);
    await hub.beforeApplicationShutdown();
  });

  it('refuses a since beyond the outbox head (4000: resync) and a malformed one (1008)', async () => {
    const { hub, outbox, attach } = setUp();
    outbox.append('assets', 'a1');
    await hub.onApplicationBootstrap();
    const ahead = attach(ASSET_IDS, '?since=2');
    const malformed = attach(ASSET_IDS, '?since=-1');
    await settle();
    expect(ahead.closed).toEqual({ code: 4000, reason: 'resync' });
    expect(malformed.closed?.code).toBe(1008);
    await hub.beforeApplicationShutdown();
  });

  it('closes a slow socket with 1013 and the id it has everything up to', async () => {
    const { hub, outbox, attach } = setUp();
    await hub.onApplicationBootstrap();
    const socket = attach(ASSET_IDS);
    await settle();
    outbox.append('assets', 'a1');
    hub.wake();
    await settle();
    socket.bufferedAmount = 2 << 20; // over the bound: the reader stopped reading
    outbox.append('assets', 'a2');
    hub.wake();
    await settle();
    expect(socket.eventIds).toEqual([1]);
    expect(socket.closed).toEqual({ code: 1013, reason: 'too slow; resume with since=1' });
    await hub.beforeApplicationShutdown();
  });
});
