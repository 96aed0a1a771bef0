import { WebSocket } from 'ws';
import { RawSocket, frameText, rawSocketOf, writePreframed } from '../../common/streams/ws-internals';

/** Close codes. 1001 going away (shutdown), 1008 bad query, 1011 server error, 1013 slow consumer. */
export const CLOSE = { shutdown: 1001, policy: 1008, error: 1011, slow: 1013, resync: 4000 } as const;

/** How long a catching-up socket may keep more than the bound waiting before it is closed with 1013. */
const DRAIN_WAIT_MS = 10_000;
/** A corked socket is flushed once this much is waiting in it (so `bufferedAmount` stays a measure of the reader's backlog). */
const CORK_FLUSH_BYTES = 64 * 1024;

/** A socket of a stream view as the writer sees it. */
export interface Outlet {
  socket: WebSocket;
  /** `?ids=true`: every frame carries `event_id`. */
  ids: boolean;
  /** Id of the last outbox event this socket has been given (or that its first frame covers). */
  cursor: number;
  /** Live sockets get frames from the tailer; the others are reading the outbox themselves. */
  live: boolean;
}

function withEventId(body: string, eventId: number): string {
  return `${body.slice(0, -1)},"event_id":${eventId}}`;
}

/**
 * One frame of one view for one event, serialised and framed (WebSocket header + payload)
 * once, then written as is to every socket of the view.
 */
export class Prepared {
  private plain?: Buffer;
  private withId?: Buffer;
  constructor(
    readonly body: string,
    readonly eventId: number,
  ) {}
  framed(ids: boolean): Buffer {
    if (!ids) return (this.plain ??= frameText(this.body));
    return (this.withId ??= frameText(withEventId(this.body, this.eventId)));
  }
}

/**
 * Writes the change streams' frames to their sockets within the send bound (`sendBuffer`
 * bytes waiting in a socket): a socket over it is closed with 1013 and told where to resume, so
 * that it never holds more than the bound plus one frame. A batch of events handed out together
 * reaches each socket in one write (the sockets are corked meanwhile).
 */
export class StreamWriter {
  /** The sockets corked while a batch is handed out, with the bytes written to each since. */
  private corked: Map<RawSocket, number> | null = null;
  /** For tests and benchmarks: sockets closed for being slow, and the largest send buffer seen. */
  readonly stats = { slowClosed: 0, peakBuffered: 0 };

  constructor(private readonly sendBuffer: number) {}

  /**
   * Sends one frame unless the socket already has more than the bound waiting (a slow or
   * stalled reader): then it is closed with 1013 and the event id to resume from.
   */
  send(sub: Outlet, frame: string | Prepared, eventId: number): boolean {
    const socket = sub.socket;
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount > this.sendBuffer) {
      this.stats.slowClosed += 1;
      sub.live = false;
      socket.close(CLOSE.slow, `too slow; resume with since=${sub.cursor}`);
      return false;
    }
    if (typeof frame === 'string') socket.send(sub.ids ? withEventId(frame, eventId) : frame);
    else {
      const framed = frame.framed(sub.ids);
      // Made once for every socket: written past `ws`, which would frame it again for each.
      if (!writePreframed(socket, framed))
        socket.send(Buffer.from(sub.ids ? withEventId(frame.body, eventId) : frame.body), { binary: false });
      const raw = rawSocketOf(socket);
      const pending = raw && this.corked?.get(raw);
      if (raw && pending !== undefined && pending !== null) {
        // Hand what this batch wrote to the kernel now and then: a fast reader's buffer must
        // not look like a slow reader's backlog because it was corked.
        if (pending + framed.length >= CORK_FLUSH_BYTES) {
          raw.uncork();
          raw.cork();
          this.corked!.set(raw, 0);
        } else {
          this.corked!.set(raw, pending + framed.length);
        }
      }
    }
    this.notePeak(socket);
    return true;
  }

  /** One fragment of a first frame too large for one page, once the socket has at most half the bound waiting. */
  async fragment(sub: Outlet, text: string, fin: boolean): Promise<boolean> {
    if (!(await this.drained(sub, 'too slow for the first frame; open again'))) return false;
    sub.socket.send(text, { fin });
    this.notePeak(sub.socket);
    return true;
  }

  /**
   * True once the socket has at most the bound waiting; a socket that stays over it for
   * DRAIN_WAIT_MS is closed with 1013 (false).
   */
  async drained(sub: Outlet, reason = `too slow; resume with since=${sub.cursor}`): Promise<boolean> {
    const socket = sub.socket;
    const deadline = Date.now() + DRAIN_WAIT_MS;
    // Wait down to half the bound (not just under it): fewer, larger bursts.
    while (
      socket.readyState === WebSocket.OPEN &&
      socket.bufferedAmount > this.sendBuffer / 2 &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount > this.sendBuffer) {
      this.stats.slowClosed += 1;
      socket.close(CLOSE.slow, reason);
      return false;
    }
    return true;
  }

  /** Runs `handOut` with the TCP socket of every live one of `subs` corked: what it sends each goes out in one write. */
  corkedWhile(subs: Iterable<Outlet>, handOut: () => void): void {
    const corked = new Map<RawSocket, number>();
    for (const sub of subs) {
      const raw = rawSocketOf(sub.socket);
      if (sub.live && raw && !corked.has(raw)) {
        raw.cork();
        corked.set(raw, 0);
      }
    }
    this.corked = corked;
    try {
      handOut();
    } finally {
      this.corked = null;
      for (const raw of corked.keys()) raw.uncork();
    }
  }

  private notePeak(socket: WebSocket): void {
    if (socket.bufferedAmount > this.stats.peakBuffered) this.stats.peakBuffered = socket.bufferedAmount;
  }
}
