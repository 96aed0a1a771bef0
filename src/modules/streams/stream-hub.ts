import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { isUUID } from 'class-validator';
import { WebSocket } from 'ws';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { Keyset } from '../../common/database/keyset';
import { checkSocket } from '../../common/streams/ws-internals';
import { StreamEvent } from '../../common/events/outbox';
import { AssetReader } from '../assets/asset.reader';
import { OutboxReader } from '../../common/events/outbox.reader';
import { StreamTopics, StreamView, assetsView, identifiersView } from './stream-topics';
import { FirstFrames, FirstPage } from './first-frames';
import { CLOSE, Outlet, Prepared, StreamWriter } from './stream-writer';
import { MODEL_DOWNLOAD_PATH } from '../../common/http/ws-adapter';
import { ModelDownloads } from '../models/model-downloads';
import { LocalUser } from '../system/local-user';
import { ltmStatusWire } from '../system/wire/ltm-status.wire';
import { userProfileWire } from '../system/wire/user.wire';

/** Paths served by the hub. */
export const STREAM_PATHS = {
  assetIdentifiers: '/assets/stream/identifiers',
  conversationIdentifiers: '/conversations/stream/identifiers',
  modelIdentifiers: '/models/stream/identifiers',
  workstreamSummaryIdentifiers: '/workstream_summaries/stream/identifiers',
  applicationIdentifiers: '/applications/stream/identifiers',
  anchorIdentifiers: '/anchors/stream/identifiers',
  rangeIdentifiers: '/ranges/stream/identifiers',
  personIdentifiers: '/persons/stream/identifiers',
  sensitiveIdentifiers: '/sensitives/stream/identifiers',
  assets: '/assets/stream',
  assetTransferables: '/assets/stream/transferables',
  health: '/.well-known/stream/health',
  user: '/user/stream',
  ltmStatus: '/workstream_pattern_engine/processors/vision/status/stream',
  /** `/model/{model}/download/progress`, handed over by TroveWsAdapter as this path with `?model=` (gateways route by exact path). */
  modelDownload: MODEL_DOWNLOAD_PATH,
} as const;

/** Outbox events read per query, by the tailer and by a catching-up socket. */
const BATCH = 500;
/** How long shutdown waits for clients to answer the 1001 close before cutting them off. */
const CLOSE_GRACE_MS = 1000;
interface Subscriber extends Outlet {
  view: StreamView;
  catchingUp: boolean;
}

/**
 * The change streams of this instance. One tail loop reads the outbox (`id > position`, in id
 * order) whenever it is woken (StreamWakeups: NOTIFY, Redis, EventBus, a slow poll) and hands
 * each event to the live sockets of its topic; a frame is made once per view and event.
 *
 * A new socket first gets its snapshot together with the outbox head it reflects (one
 * consistent read), or starts from `?since=`; it then reads the outbox itself from there
 * ("catching up") until it has reached the tail position, and only then goes live. Position
 * and sends change in one synchronous step, so a socket never misses nor repeats an event
 * across that switch. A socket whose send buffer is over the bound is closed with 1013 and
 * told where to resume (StreamWriter).
 */
@Injectable()
export class StreamHub implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Streams');
  readonly views = new Map<string, StreamView>();
  private readonly byView = new Map<StreamView, Set<Subscriber>>();
  /** Every open socket (streams, health and the others), its path and whether it answered the last ping. */
  private readonly sockets = new Map<WebSocket, { alive: boolean; health: boolean; path: string }>();
  /**
   * Streams that are not views of the outbox: their first frame is the whole state, and they
   * change only in this process. The local user and the long-term-memory status do not change
   * while Trove runs (one frame; the socket stays open, with heartbeats, as clients keep it).
   */
  private readonly singles: Record<string, () => string>;
  /** Highest outbox id handed to the live sockets. */
  private position = 0;
  private started = false;
  private stopping = false;
  private tailing: Promise<void> | null = null;
  private again = false;
  /** Woken while no socket watched a view: `position` may lag the outbox (see `tailOnce`). */
  private behind = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly firstFrames: FirstFrames;
  private readonly writer: StreamWriter;
  /** Openings and catch-ups in flight: shutdown waits for them before the database closes. */
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly outbox: OutboxReader,
    private readonly topics: StreamTopics,
    assets: AssetReader,
    user: LocalUser,
    private readonly downloads: ModelDownloads,
  ) {
    this.firstFrames = new FirstFrames(db, outbox);
    this.writer = new StreamWriter(config.wsSendBuffer);
    this.singles = {
      [STREAM_PATHS.user]: () => JSON.stringify(userProfileWire(user.id)),
      [STREAM_PATHS.ltmStatus]: () => JSON.stringify(ltmStatusWire()),
    };
    for (const view of [
      identifiersView(STREAM_PATHS.assetIdentifiers, topics, 'assets'),
      identifiersView(STREAM_PATHS.conversationIdentifiers, topics, 'conversations'),
      identifiersView(STREAM_PATHS.modelIdentifiers, topics, 'models'),
      identifiersView(STREAM_PATHS.workstreamSummaryIdentifiers, topics, 'workstream_summaries'),
      identifiersView(STREAM_PATHS.applicationIdentifiers, topics, 'applications'),
      identifiersView(STREAM_PATHS.anchorIdentifiers, topics, 'anchors'),
      identifiersView(STREAM_PATHS.rangeIdentifiers, topics, 'ranges'),
      identifiersView(STREAM_PATHS.personIdentifiers, topics, 'persons'),
      identifiersView(STREAM_PATHS.sensitiveIdentifiers, topics, 'sensitives'),
      assetsView(STREAM_PATHS.assets, assets, false),
      assetsView(STREAM_PATHS.assetTransferables, assets, true),
    ]) {
      this.views.set(view.path, view);
      this.byView.set(view, new Set());
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    this.position = await this.db.read((em) => this.outbox.head(em));
    this.started = true;
    this.heartbeat = setInterval(() => this.beat(), this.config.wsHeartbeatMs);
    this.heartbeat.unref();
  }

  /** Closes every socket with 1001 (they may resume elsewhere with `since`), then stops. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    const open = [...this.sockets.keys()];
    await Promise.all(
      open.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              socket.terminate();
              resolve();
            }, CLOSE_GRACE_MS);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close(CLOSE.shutdown, 'server shutting down');
          }),
      ),
    );
    await this.tailing;
    await Promise.all(this.inflight);
  }

  private track(work: Promise<void>, sub: Subscriber): void {
    const tracked = work.catch((error) => this.fail(sub, error)).finally(() => this.inflight.delete(tracked));
    this.inflight.add(tracked);
  }

  /** For tests and benchmarks: sockets closed for being slow, and the largest send buffer seen. */
  get stats(): { slowClosed: number; peakBuffered: number } {
    return this.writer.stats;
  }

  /** Number of open stream sockets (for tests and benchmarks). */
  get size(): number {
    return this.sockets.size;
  }

  /** Open sockets per stream path (one of STREAM_PATHS: a template, never a socket's own URL), for the metrics. */
  subscribers(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { path } of this.sockets.values()) counts.set(path, (counts.get(path) ?? 0) + 1);
    return counts;
  }

  /** Takes a freshly upgraded socket of one of STREAM_PATHS. */
  attach(socket: WebSocket, request: IncomingMessage, path: string): void {
    if (this.stopping) return socket.close(CLOSE.shutdown, 'server shutting down');
    checkSocket(socket);
    const entry = { alive: true, health: path === STREAM_PATHS.health, path };
    this.sockets.set(socket, entry);
    socket.on('pong', () => (entry.alive = true));
    socket.on('error', (error) => this.logger.debug(`socket error on ${path}: ${error.message}`));
    if (entry.health) {
      socket.once('close', () => this.sockets.delete(socket));
      socket.send('ok');
      return;
    }
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const single = this.singles[path];
    if (single) {
      socket.once('close', () => this.sockets.delete(socket));
      socket.send(single());
      return;
    }
    if (path === STREAM_PATHS.modelDownload) return this.attachDownload(socket, query.get('model'));
    const view = this.views.get(path)!;
    const sinceRaw = query.get('since');
    const idsRaw = query.get('ids');
    if (sinceRaw !== null && (!/^\d+$/.test(sinceRaw) || !Number.isSafeInteger(Number(sinceRaw)))) {
      this.sockets.delete(socket);
      return socket.close(CLOSE.policy, 'since must be a non-negative integer event id');
    }
    if (idsRaw !== null && idsRaw !== 'true' && idsRaw !== 'false') {
      this.sockets.delete(socket);
      return socket.close(CLOSE.policy, 'ids must be true or false');
    }
    const sub: Subscriber = { socket, view, ids: idsRaw === 'true', cursor: 0, live: false, catchingUp: false };
    const subscribers = this.byView.get(view)!;
    subscribers.add(sub);
    if (this.behind) this.wake();
    socket.once('close', () => {
      subscribers.delete(sub);
      this.sockets.delete(socket);
    });
    this.track(this.open(sub, sinceRaw === null ? null : Number(sinceRaw)), sub);
  }

  /**
   * `/model/{model}/download/progress`: the download's state now (ModelDownloadProgress), then
   * one frame per change, until the socket closes (a client closes it after COMPLETED, FAILED or
   * CANCELED; the socket also gets the frames of a later download of the same model).
   */
  private attachDownload(socket: WebSocket, model: string | null): void {
    if (!model || !isUUID(model)) {
      this.sockets.delete(socket);
      return socket.close(CLOSE.policy, 'the path must be /model/{model}/download/progress with a model id (a UUID)');
    }
    const id = model.toLowerCase();
    const unsubscribe = this.downloads.subscribe(id, (frame) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    });
    socket.once('close', () => {
      unsubscribe();
      this.sockets.delete(socket);
    });
    socket.send(JSON.stringify(this.downloads.progress(id)));
  }

  /** Reads the outbox soon (coalesced: at most one read in flight and one queued). */
  wake(): void {
    if (!this.started || this.stopping) return;
    if (!this.watched()) {
      // Nobody to hand events to: no read at all (a busy writer wakes this on every commit).
      this.behind = true;
      return;
    }
    if (this.tailing) {
      this.again = true;
      return;
    }
    this.tailing = this.tail().finally(() => (this.tailing = null));
  }

  private async open(sub: Subscriber, since: number | null): Promise<void> {
    if (since === null) {
      const first = await this.firstFrames.read(sub.view, this.position);
      sub.cursor = first.head;
      if (first.next ? !(await this.sendInParts(sub, first)) : !this.writer.send(sub, first.body, first.head)) return;
    } else {
      const head = await this.db.read((em) => this.outbox.head(em));
      if (since > head) return this.resync(sub, `event ${since} is unknown here (latest is ${head})`);
      sub.cursor = since;
    }
    await this.catchUp(sub);
  }

  /**
   * A first frame larger than one page, sent as one WebSocket message in fragments (one per
   * page), each page read once the socket has taken the previous one: the server never holds
   * more than the send bound and a page, whatever the store's size. The pages after the first
   * are read after the head (not in its snapshot): a record changed meanwhile may show its new
   * state in the frame and also arrive as an event after it, which a client applies again
   * harmlessly; nothing changed after the head is missed. A socket too slow to take a page
   * within DRAIN_WAIT_MS is closed with 1013 and opens again without `since`.
   */
  private async sendInParts(sub: Subscriber, first: FirstPage): Promise<boolean> {
    let part = `{"iterable":[${first.items.join(',')}`;
    let next: Keyset | null = first.next;
    while (next) {
      if (!(await this.writer.fragment(sub, part, false))) return false;
      const after: Keyset = next;
      const page = await this.db.read((em) => sub.view.page(em, after));
      part = page.items.length ? `,${page.items.join(',')}` : '';
      next = page.next;
    }
    return this.writer.fragment(sub, `${part}]${sub.ids ? `,"event_id":${first.head}` : ''}}`, true);
  }

  /** Sends the socket every event after its cursor from the outbox, then makes it live. */
  private async catchUp(sub: Subscriber): Promise<void> {
    if (sub.catchingUp) return;
    sub.catchingUp = true;
    sub.live = false;
    try {
      while (sub.socket.readyState === WebSocket.OPEN && !this.stopping) {
        const from = sub.cursor;
        const { pruned, events, frames } = await this.db.readConsistent(async (em) => {
          const events = await this.outbox.after(em, from, BATCH);
          const hidden = await this.topics.hidden(em, events);
          const frames: (string | null)[] = [];
          for (const event of events) {
            const shown = event.topic === sub.view.topic && !hidden.has(`${event.topic}:${event.entityId}`);
            frames.push(shown ? JSON.stringify(await sub.view.change(em, event)) : null);
          }
          return { pruned: await this.outbox.prunedThrough(em), events, frames };
        });
        if (from < pruned) return this.resync(sub, `events after ${from} are no longer kept`);
        for (let i = 0; i < events.length; i++) {
          const frame = frames[i];
          // Catching up reads at the socket's pace: wait for its buffer to drain, up to a limit.
          if (frame !== null && !(await this.writer.drained(sub))) return;
          if (frame !== null && !this.writer.send(sub, frame, events[i].id)) return;
          sub.cursor = events[i].id;
        }
        // Synchronously with the tailer's position: from here on the tailer hands over.
        if (events.length < BATCH && sub.cursor >= this.position) {
          sub.live = true;
          return;
        }
      }
    } finally {
      sub.catchingUp = false;
    }
  }

  private async tail(): Promise<void> {
    do {
      this.again = false;
      try {
        let full: boolean;
        do {
          full = await this.tailOnce();
        } while (full && !this.stopping);
      } catch (error) {
        // Nothing was handed out past `position`: the next wake-up or poll reads it again.
        if (!this.stopping) this.logger.error(`reading the change outbox failed: ${(error as Error).message}`);
        return;
      }
    } while (this.again && !this.stopping);
  }

  private watched(): boolean {
    for (const subs of this.byView.values()) if (subs.size) return true;
    return false;
  }

  /**
   * After wake-ups with nobody watching, the events appended meanwhile are skipped rather than
   * read: `position` moves to the outbox head, but never past a live socket's cursor (it went
   * live at the old position and still needs what follows its cursor). Sockets catching up
   * read on until they reach the new position.
   */
  private async skipUnwatched(): Promise<void> {
    this.behind = false;
    const head = await this.db.read((em) => this.outbox.head(em));
    let target = head;
    for (const subs of this.byView.values())
      for (const sub of subs) if (sub.live) target = Math.min(target, sub.cursor);
    if (target > this.position) this.position = target;
  }

  /** One batch: frames are made first (reads), then handed out in one synchronous step. */
  private async tailOnce(): Promise<boolean> {
    if (this.behind) await this.skipUnwatched();
    const from = this.position;
    const watched = [...this.byView].filter(([, subs]) => subs.size > 0).map(([view]) => view);
    const { events, frames } = await this.db.read(async (em) => {
      const events = await this.outbox.after(em, from, BATCH);
      const hidden = watched.length ? await this.topics.hidden(em, events) : new Set<string>();
      const frames: Map<StreamView, Prepared | null>[] = [];
      for (const event of events) {
        const perView = new Map<StreamView, Prepared | null>();
        const shown = !hidden.has(`${event.topic}:${event.entityId}`);
        for (const view of watched) {
          if (view.topic !== event.topic) continue;
          perView.set(
            view,
            shown ? new Prepared(JSON.stringify(await view.change(view.reads ? em : null, event)), event.id) : null,
          );
        }
        frames.push(perView);
      }
      return { events, frames };
    });
    if (this.position !== from || !events.length) return false;
    const handOut = () => {
      for (let i = 0; i < events.length; i++) this.handOut(events[i], frames[i]);
      this.position = events[events.length - 1].id;
    };
    // Several events in one batch reach each socket in one write (writev) instead of one each.
    if (events.length > 1) this.writer.corkedWhile(this.subscribersOfAllViews(), handOut);
    else handOut();
    return events.length === BATCH;
  }

  private *subscribersOfAllViews(): Iterable<Subscriber> {
    for (const subs of this.byView.values()) yield* subs;
  }

  /** `frames`: per view, the frame, or null when the event is not shown (a pseudo asset). */
  private handOut(event: StreamEvent, frames: Map<StreamView, Prepared | null>): void {
    for (const [view, subs] of this.byView) {
      if (view.topic !== event.topic) continue;
      const frame = frames.get(view);
      for (const sub of subs) {
        if (!sub.live || event.id <= sub.cursor) continue;
        if (frame === null) {
          sub.cursor = event.id;
          continue;
        }
        if (frame === undefined) {
          // The socket went live while this batch was being prepared: it reads the rest itself.
          this.track(this.catchUp(sub), sub);
          continue;
        }
        if (this.writer.send(sub, frame, event.id)) sub.cursor = event.id;
      }
    }
  }

  private resync(sub: Subscriber, why: string): void {
    this.logger.debug(`resync ${sub.view.path}: ${why}`);
    if (sub.socket.readyState === WebSocket.OPEN) sub.socket.close(CLOSE.resync, 'resync');
  }

  private fail(sub: Subscriber, error: unknown): void {
    if (this.stopping) return; // the database may already be closed; the socket gets 1001
    this.logger.error(`stream ${sub.view.path} failed: ${(error as Error).message}`);
    if (sub.socket.readyState === WebSocket.OPEN)
      sub.socket.close(CLOSE.error, `internal error; resume with since=${sub.cursor}`);
  }

  /** Pings every socket; one that has not answered since the last ping is dropped. Health sockets also get `ok`. */
  private beat(): void {
    for (const [socket, entry] of this.sockets) {
      if (!entry.alive) {
        socket.terminate();
        continue;
      }
      entry.alive = false;
      if (socket.readyState !== WebSocket.OPEN) continue;
      socket.ping();
      if (entry.health) socket.send('ok');
    }
  }
}
