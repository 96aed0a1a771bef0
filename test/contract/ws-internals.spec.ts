import { Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { checkSocket, frameText, rawSocketOf, writePreframed } from '../../src/common/streams/ws-internals';

/**
 * Contract of src/common/streams/ws-internals.ts: what it relies on in `ws`, checked on sockets
 * made exactly as Trove's are (by @nestjs/platform-ws's WsAdapter, with the `ws` it loads, on a
 * real HTTP server on 127.0.0.1) and read by a real `ws` client. A failure here after an
 * upgrade names the property that changed: fix the adapter (or drop its shortcut), not the
 * stream hub.
 */

/** The internals the adapter reads, looked at here only to check them. */
interface Internals {
  _socket: { write(chunk: Buffer, ...rest: unknown[]): boolean };
  _sender: { _state: number; _queue: unknown[] };
}
const internals = (socket: WebSocket) => socket as unknown as Internals;

interface Pair {
  /** The server's side (what the stream hub writes to). */
  server: WebSocket;
  client: WebSocket;
  /** Text messages the client received, in order. */
  received: string[];
  /** Resolves once the client has received `count` messages in all. */
  receivedCount(count: number): Promise<string[]>;
}

describe('contract: ws-internals.ts (ws, as @nestjs/platform-ws makes the sockets)', () => {
  let http: HttpServer;
  let plain: WebSocketServer;
  let deflating: WebSocketServer;
  let adapter: WsAdapter;
  let base: string;
  const pairs: Pair[] = [];

  beforeAll(async () => {
    http = createServer();
    adapter = new WsAdapter(http);
    // As TroveWsAdapter creates them: on the HTTP server's port, no compression.
    plain = adapter.create(0, { path: '/plain', perMessageDeflate: false }) as WebSocketServer;
    // Compression makes the sender busy (deflating) for a while: the case writePreframed must refuse.
    deflating = adapter.create(0, { path: '/deflate', perMessageDeflate: { threshold: 0 } }) as WebSocketServer;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const pair of pairs) pair.client.terminate();
    await adapter.close(plain);
    await adapter.close(deflating);
    await new Promise((resolve) => http.close(resolve));
  });

  async function connect(server: WebSocketServer, path: string): Promise<Pair> {
    const accepted = new Promise<WebSocket>((resolve) =>
      server.once('connection', (socket: WebSocket) => resolve(socket)),
    );
    const client = new WebSocket(`${base}${path}`);
    const received: string[] = [];
    let waiting: { count: number; resolve: (messages: string[]) => void } | null = null;
    client.on('message', (data, isBinary) => {
      received.push(isBinary ? `<binary ${String(data)}>` : String(data));
      if (waiting && received.length >= waiting.count) waiting.resolve(received);
    });
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    const pair: Pair = {
      server: await accepted,
      client,
      received,
      receivedCount: (count) =>
        received.length >= count
          ? Promise.resolve(received)
          : new Promise((resolve) => (waiting = { count, resolve: resolve as (m: string[]) => void })),
    };
    pairs.push(pair);
    return pair;
  }

  it('checkSocket finds the internals on a connected socket (writePreframed and rawSocketOf stay on)', async () => {
    const { server } = await connect(plain, '/plain');
    const warn = jest.spyOn(Logger.prototype, 'warn');
    checkSocket(server);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(rawSocketOf(server)).toBeDefined();
    expect(writePreframed(server, frameText('checked'))).toBe(true);
  });

  it("an idle sender's send(text) writes exactly frameText(text) to _socket, leaving _state 0 and _queue empty (what writePreframed replaces)", async () => {
    const { server, receivedCount } = await connect(plain, '/plain');
    const raw = internals(server)._socket;
    expect(internals(server)._sender._state).toBe(0);
    expect(internals(server)._sender._queue).toEqual([]);
    for (const text of ['short', 'é'.repeat(100), 'x'.repeat(70_000)]) {
      const written: Buffer[] = [];
      const write = raw.write;
      raw.write = function (this: unknown, chunk: Buffer, ...rest: unknown[]) {
        written.push(Buffer.from(chunk));
        return write.call(this, chunk, ...rest);
      };
      try {
        server.send(text);
      } finally {
        raw.write = write;
      }
      expect(Buffer.concat(written).equals(frameText(text))).toBe(true);
      expect(internals(server)._sender._state).toBe(0);
      expect(internals(server)._sender._queue).toHaveLength(0);
    }
    expect(await receivedCount(3)).toEqual(['short', 'é'.repeat(100), 'x'.repeat(70_000)]);
  });

  it('a frame written by writePreframed reaches the client as that text message, in order with send()', async () => {
    const { server, receivedCount } = await connect(plain, '/plain');
    const long = JSON.stringify({ iterable: [{ asset: { id: 'a'.repeat(200_000) } }] });
    expect(writePreframed(server, frameText('{"iterable":[]}'))).toBe(true);
    server.send('sent');
    expect(writePreframed(server, frameText(long))).toBe(true);
    expect(writePreframed(server, frameText('ünïcödé ✓'))).toBe(true);
    expect(await receivedCount(4)).toEqual(['{"iterable":[]}', 'sent', long, 'ünïcödé ✓']);
  });

  it('refuses (false) while the sender is busy compressing or has messages queued; send() then keeps the order', async () => {
    const { server, receivedCount } = await connect(deflating, '/deflate');
    const big = 'compress me '.repeat(50_000);
    server.send(big, { compress: true });
    expect(internals(server)._sender._state).not.toBe(0); // deflating
    expect(writePreframed(server, frameText('overtaking'))).toBe(false);
    server.send('queued');
    expect(internals(server)._sender._queue.length).toBeGreaterThan(0);
    expect(writePreframed(server, frameText('overtaking'))).toBe(false);
    expect(await receivedCount(2)).toEqual([big, 'queued']);
    // Idle again once the queue has drained.
    expect(internals(server)._sender._state).toBe(0);
    expect(writePreframed(server, frameText('now'))).toBe(true);
    expect(await receivedCount(3)).toEqual([big, 'queued', 'now']);
  });

  it('refuses (false) while the sender reads a Blob, and the Blob arrives first', async () => {
    const { server, receivedCount } = await connect(plain, '/plain');
    server.send(new Blob(['blob']));
    expect(internals(server)._sender._state).not.toBe(0);
    expect(writePreframed(server, frameText('after'))).toBe(false);
    server.send('after');
    expect(await receivedCount(2)).toEqual(['<binary blob>', 'after']);
  });

  it("bufferedAmount counts pre-framed bytes the client has not read yet, byte for byte (the hub's slow-reader bound)", async () => {
    const { server, client, receivedCount } = await connect(plain, '/plain');
    client.pause();
    const frame = frameText('y'.repeat(1 << 20));
    let sent = 0;
    // Fill the kernel's buffers first; from then on every write waits in the socket.
    while (server.bufferedAmount === 0 && sent < 256) {
      expect(writePreframed(server, frame)).toBe(true);
      sent += 1;
    }
    expect(server.bufferedAmount).toBeGreaterThan(0);
    const before = server.bufferedAmount;
    expect(writePreframed(server, frame)).toBe(true);
    sent += 1;
    expect(server.bufferedAmount - before).toBe(frame.length);
    client.resume();
    expect(await receivedCount(sent)).toHaveLength(sent);
    expect(server.bufferedAmount).toBe(0);
  });

  it('rawSocketOf: corked, pre-framed writes count in bufferedAmount and leave together on uncork, in order', async () => {
    const { server, receivedCount } = await connect(plain, '/plain');
    const raw = rawSocketOf(server)!;
    expect(rawSocketOf(server)).toBe(raw);
    const frames = ['first', 'second', 'third'].map(frameText);
    raw.cork();
    for (const frame of frames) expect(writePreframed(server, frame)).toBe(true);
    expect(server.bufferedAmount).toBe(frames.reduce((sum, frame) => sum + frame.length, 0));
    raw.uncork();
    expect(await receivedCount(3)).toEqual(['first', 'second', 'third']);
    expect(server.bufferedAmount).toBe(0);
  });

  it('steps aside for good when the first socket lacks the internals (a fresh copy of the adapter, a socket without them)', () => {
    jest.isolateModules(() => {
      type Internals = typeof import('../../src/common/streams/ws-internals');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require('../../src/common/streams/ws-internals') as Internals;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Logger: FreshLogger } = require('@nestjs/common') as typeof import('@nestjs/common');
      const warn = jest.spyOn(FreshLogger.prototype, 'warn').mockImplementation(() => undefined);
      const bare = { _socket: null, _sender: null } as unknown as WebSocket;
      fresh.checkSocket(bare);
      expect(warn).toHaveBeenCalledTimes(1);
      warn.mockRestore();
      const written: Buffer[] = [];
      const lookalike = {
        _socket: { write: (b: Buffer) => written.push(b), cork: () => undefined, uncork: () => undefined },
        _sender: { _state: 0, _queue: [] },
      } as unknown as WebSocket;
      expect(fresh.writePreframed(lookalike, frameText('x'))).toBe(false);
      expect(fresh.rawSocketOf(lookalike)).toBeUndefined();
      expect(written).toEqual([]);
    });
  });
});
