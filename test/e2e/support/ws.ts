import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A real `ws` client that records every text frame. `next()` waits for the next frame not
 * yet taken; `closed` settles with the close code and reason.
 */
export class StreamClient {
  readonly frames: unknown[] = [];
  readonly closed: Promise<Closed>;
  readonly opened: Promise<void>;
  private taken = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly socket: WebSocket,
    readonly raw = false,
  ) {
    socket.on('message', (data) => {
      const text = data.toString();
      this.frames.push(raw ? text : JSON.parse(text));
      this.waiters.splice(0).forEach((wake) => wake());
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.opened = new Promise((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    void this.closed.then(() => this.waiters.splice(0).forEach((wake) => wake()));
  }

  /** Opens `path` (with its query) on the server and waits for the connection. */
  static async open(
    baseUrl: string,
    path: string,
    options: { raw?: boolean; headers?: Record<string, string> } = {},
  ): Promise<StreamClient> {
    const client = new StreamClient(
      new WebSocket(baseUrl.replace(/^http/, 'ws') + path, { headers: options.headers }),
      options.raw,
    );
    await client.opened;
    return client;
  }

  /** The next frame, in order; fails after `ms`. */
  async next<T = any>(ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    while (this.frames.length <= this.taken) {
      if (this.socket.readyState === WebSocket.CLOSED)
        throw new Error(`socket closed while waiting for frame ${this.taken}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no frame ${this.taken} within ${ms} ms (got ${this.frames.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames[this.taken++] as T;
  }

  /** The next `n` frames. */
  async take<T = any>(n: number, ms = 10000): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(await this.next<T>(ms));
    return out;
  }

  /** Asserts that no further frame arrives within `ms`. */
  async quiet(ms = 300): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.frames.length > this.taken)
      throw new Error(`unexpected frame: ${JSON.stringify(this.frames[this.taken])}`);
  }

  close(): void {
    this.socket.close();
  }
}

/** Resolves with the HTTP status of a refused upgrade, or rejects when the upgrade succeeds. */
export function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<number | 'reset'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      socket.close();
      reject(new Error('upgrade was accepted'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || /socket hang up/.test(error.message)) resolve('reset');
    });
  });
}

/** What a refused WebSocket upgrade answered: its status and its body (parsed when JSON), or 'reset' when the socket was dropped. */
export function upgradeAnswer(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; json: any } | 'reset'> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        socket.terminate();
      });
    });
    socket.on('open', () => {
      socket.close();
      reject(new Error('upgrade was accepted'));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || /socket hang up/.test(error.message)) resolve('reset');
    });
  });
}
