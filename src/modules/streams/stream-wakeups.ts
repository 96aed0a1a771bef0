import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfig } from '../../common/config/app-config';
import { Database } from '../../common/database/database.service';
import { PgListener } from '../../common/database/pg-listener';
import { Commits } from '../../common/events/commits';
import { Outbox, STREAM_CHANNEL } from '../../common/events/outbox';
import { OutboxReader } from '../../common/events/outbox.reader';
import { StreamHub } from './stream-hub';

/** Wait before reconnecting a lost LISTEN or Redis connection. */
const RECONNECT_MS = 1000;
/** Pruning of events older than the retention runs this often. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * What wakes the tail loop of StreamHub. None of these carries the events themselves (the
 * outbox does), so a lost signal only delays a frame until the next one or the poll:
 * - a commit on this instance (Commits, once per turn of the event loop): the local tailer, and
 *   Redis pub/sub when TROVE_REDIS_URL is set (e.g. several processes on one SQLite file);
 * - PostgreSQL: LISTEN on the channel every append NOTIFYs (delivered at commit) for the commits
 *   of the other instances (this instance's own carry its id and are left to Commits);
 * - a poll every TROVE_STREAM_POLL_MS.
 * It also prunes events older than TROVE_STREAM_RETENTION_HOURS.
 */
@Injectable()
export class StreamWakeups implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Streams');
  private readonly timers: NodeJS.Timeout[] = [];
  private listener: PgListener | null = null;
  private redisSub: Redis | null = null;
  private redisPub: Redis | null = null;
  private stopping = false;
  private pruning: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly config: AppConfig,
    private readonly db: Database,
    private readonly hub: StreamHub,
    private readonly outbox: OutboxReader,
    private readonly appends: Outbox,
    commits: Commits,
  ) {
    commits.onCommit(() => this.committed());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.db.dialect === 'postgres') {
      // Other instances' commits (this instance's own carry its id); on (re)connect, whatever committed meanwhile.
      this.listener = new PgListener(
        this.config.databaseUrl!,
        this.db.channel(STREAM_CHANNEL),
        this.logger,
        (payload) => payload !== this.appends.instance && this.hub.wake(),
        () => this.hub.wake(),
      );
      await this.listener.start();
    }
    if (this.config.redisUrl) await this.connectRedis(this.config.redisUrl);
    this.every(this.config.streamPollMs, () => this.hub.wake());
    this.every(PRUNE_EVERY_MS, () => void this.prune());
    void this.prune();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.timers.forEach(clearInterval);
    await this.pruning;
    await this.listener?.stop();
    this.redisSub?.disconnect();
    this.redisPub?.disconnect();
  }

  /** A change committed on this instance: wake the local tailer and tell the others. */
  committed(): void {
    this.hub.wake();
    this.redisPub?.publish(this.db.channel(STREAM_CHANNEL), this.appends.instance).catch(() => undefined);
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  prune(): Promise<number> {
    if (this.stopping) return Promise.resolve(0);
    return (this.pruning = this.pruning.then(() => this.pruneOnce()));
  }

  private async pruneOnce(): Promise<number> {
    if (this.stopping) return 0;
    const cutoff = new Date(Date.now() - this.config.streamRetentionHours * 3600_000).toISOString();
    try {
      return await this.outbox.prune(cutoff);
    } catch (error) {
      if (!this.stopping) this.logger.warn(`pruning old stream events failed: ${(error as Error).message}`);
      return 0;
    }
  }

  /** ioredis is loaded only when Redis is configured. */
  private async connectRedis(url: string): Promise<void> {
    const { default: Redis } = await import('ioredis');
    const options = {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => RECONNECT_MS,
    };
    this.redisPub = new Redis(url, options);
    this.redisSub = new Redis(url, { ...options, enableOfflineQueue: true });
    let warned = false;
    for (const redis of [this.redisPub, this.redisSub]) {
      redis.on('error', (error) => {
        if (!warned) this.logger.warn(`Redis wake-ups unavailable (${error.message}); polling covers it`);
        warned = true;
      });
      redis.on('ready', () => (warned = false));
    }
    this.redisSub.on('message', (_channel, from) => {
      if (from !== this.appends.instance) this.hub.wake();
    });
    this.redisSub.subscribe(this.db.channel(STREAM_CHANNEL)).catch(() => undefined);
  }
}
