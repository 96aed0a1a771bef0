import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** Wait before reconnecting a lost LISTEN connection. */
const RECONNECT_MS = 1000;

/**
 * A wake-up on one PostgreSQL channel. Every listener of a process on the same database shares
 * one dedicated connection (a pooled connection cannot hold a LISTEN): a deployment for a team
 * holds a store per user open, each listening on its own channels, and a connection per listener
 * took two of the server's connections per open store for good (100 open stores on two
 * instances: 400 of PostgreSQL's default 100). The shared connection is reconnected a second
 * after it is lost; `onListening` runs each time this listener (re)starts listening: what was
 * notified meanwhile was missed, so callers catch up there. Callers keep a poll as well; a
 * notification is only ever a wake-up.
 */
export class PgListener {
  private stopped = false;
  private connection: SharedListenConnection | null = null;

  constructor(
    private readonly url: string,
    readonly channel: string,
    readonly logger: Logger,
    readonly onNotification: (payload: string | undefined) => void,
    readonly onListening: () => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    if (this.stopped || this.connection) return;
    this.connection = SharedListenConnection.of(this.url);
    await this.connection.add(this);
  }

  /** Stops listening; the shared connection closes with its last listener. */
  async stop(): Promise<void> {
    this.stopped = true;
    const connection = this.connection;
    this.connection = null;
    await connection?.remove(this);
  }
}

/** The one LISTEN connection of a process to one database, and the listeners on each channel. */
class SharedListenConnection {
  private static readonly byUrl = new Map<string, SharedListenConnection>();

  private client: Client | null = null;
  /** The connection being made (and its LISTENs), while it is. */
  private connecting: Promise<void> | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private readonly channels = new Map<string, Set<PgListener>>();
  /** The channels the current client LISTENs on. */
  private listening = new Set<string>();
  /** Statements on the client run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly url: string) {}

  static of(url: string): SharedListenConnection {
    let connection = SharedListenConnection.byUrl.get(url);
    if (!connection) SharedListenConnection.byUrl.set(url, (connection = new SharedListenConnection(url)));
    return connection;
  }

  async add(listener: PgListener): Promise<void> {
    const key = listener.channel.toLowerCase();
    let listeners = this.channels.get(key);
    if (!listeners) this.channels.set(key, (listeners = new Set()));
    listeners.add(listener);
    if (!this.client && !this.reconnect) await this.connect(listener.logger);
    else await this.connecting;
    if (!this.client) return; // failed: polling until the reconnection, which calls onListening
    if (!this.listening.has(key)) {
      const client = this.client;
      try {
        await this.run(() => client.query(`LISTEN ${listener.channel}`));
        this.listening.add(key);
      } catch (error) {
        listener.logger.warn(`LISTEN ${listener.channel} failed (${(error as Error).message}); polling until it works`);
        this.lost(client, listener.logger);
        return;
      }
    }
    listener.onListening();
  }

  async remove(listener: PgListener): Promise<void> {
    const key = listener.channel.toLowerCase();
    const listeners = this.channels.get(key);
    if (!listeners?.delete(listener) || listeners.size > 0) return;
    this.channels.delete(key);
    const client = this.client;
    if (this.channels.size === 0) {
      SharedListenConnection.byUrl.delete(this.url);
      if (this.reconnect) clearTimeout(this.reconnect);
      this.reconnect = null;
      this.client = null;
      await this.connecting?.catch(() => undefined);
      await (client ?? this.client)?.end().catch(() => undefined);
      return;
    }
    if (client && this.listening.delete(key))
      await this.run(() => client.query(`UNLISTEN ${key}`)).catch(() => undefined);
  }

  private run<T>(statement: () => Promise<T>): Promise<T> {
    const next = this.queue.then(statement, statement);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private connect(logger: Logger): Promise<void> {
    const client = new Client({ connectionString: this.url });
    this.client = client;
    this.listening = new Set();
    client.on('notification', (message) => {
      for (const listener of this.channels.get(message.channel.toLowerCase()) ?? [])
        listener.onNotification(message.payload);
    });
    client.on('error', (error) => {
      logger.warn(`the LISTEN connection was lost (${error.message}); polling until it is back`);
      this.lost(client, logger);
    });
    this.connecting = (async () => {
      try {
        await client.connect();
        for (const [key, listeners] of this.channels) {
          const [first] = listeners;
          await this.run(() => client.query(`LISTEN ${first.channel}`));
          this.listening.add(key);
        }
      } catch (error) {
        logger.warn(`LISTEN failed (${(error as Error).message}); polling until it works`);
        this.lost(client, logger);
      } finally {
        this.connecting = null;
      }
    })();
    return this.connecting;
  }

  /** The connection failed: drop it, and make a new one in a second, which listens on every channel again. */
  private lost(client: Client, logger: Logger): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening = new Set();
    client.end().catch(() => undefined);
    if (this.channels.size === 0 || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      if (this.channels.size === 0) return;
      void this.connect(logger).then(() => {
        if (!this.client) return;
        for (const listeners of this.channels.values()) for (const listener of listeners) listener.onListening();
      });
    }, RECONNECT_MS).unref();
  }
}
