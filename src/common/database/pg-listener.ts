import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** Wait before reconnecting a lost LISTEN connection. */
const RECONNECT_MS = 1000;

/**
 * A dedicated PostgreSQL connection LISTENing on one channel, reconnected a second after it is
 * lost (a pooled connection cannot hold a LISTEN). `onListening` runs each time it (re)starts
 * listening: what was notified meanwhile was missed, so callers catch up there. Callers keep a
 * poll as well; a notification is only ever a wake-up.
 */
export class PgListener {
  private client: Client | null = null;
  private reconnect: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly logger: Logger,
    private readonly onNotification: (payload: string | undefined) => void,
    private readonly onListening: () => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.url });
    const retry = () => {
      if (this.client !== client || this.stopped) return;
      this.client = null;
      client.end().catch(() => undefined);
      this.reconnect = setTimeout(() => {
        this.reconnect = null;
        void this.start().catch(() => retry());
      }, RECONNECT_MS).unref();
    };
    this.client = client;
    client.on('notification', (message) => this.onNotification(message.payload));
    client.on('error', (error) => {
      this.logger.warn(`LISTEN ${this.channel} connection lost (${error.message}); polling until it is back`);
      retry();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      this.logger.warn(`LISTEN ${this.channel} failed (${(error as Error).message}); polling until it works`);
      retry();
      return;
    }
    this.onListening();
  }

  /** Stops listening, and stops a reconnection under way: nothing connects after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    this.reconnect = null;
    await this.client?.end().catch(() => undefined);
  }
}
