import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { AppConfig } from '../common/config/app-config';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** An open store: the app that serves it, and how many requests and sockets use it now. */
export interface OpenStore {
  readonly key: string;
  handle: RequestHandler;
  upgrade: UpgradeHandler;
  /** Requests under way and upgraded sockets open: a store in use is never closed. */
  active: number;
  lastUsed: number;
  app: NestFastifyApplication | null;
}

/** Makes a store's app, ready to serve (initialised, not listening). */
export type StoreAppFactory = (config: AppConfig) => Promise<NestFastifyApplication>;

/**
 * The configuration of a team store's app: the process's, with the store's own SQLite directory
 * (`<data dir>/users/<id>`) or PostgreSQL schema (`trove_users_<id>`), and nothing of what only
 * the process's own app does: no port, port file or legacy port, no API keys (the front checked
 * the caller), no local files read for anyone (a team's users are not the server's user).
 */
export function storeAppConfig(config: AppConfig, key: string): AppConfig {
  const store = Object.assign(Object.create(AppConfig.prototype) as AppConfig, config);
  store.storeKey = key;
  store.port = 0;
  store.portFile = null;
  store.legacyPort = null;
  store.apiKeys = [];
  store.metricsToken = null;
  store.qgptRoots = [];
  store.qgptHomeDefault = false;
  if (config.dialect === 'sqlite') store.dataDir = join(config.dataDir, key);
  else store.databaseSchema = storeSchema(key);
  return store;
}

/** `users/0123abcd...` → `trove_users_0123abcd...` (lower-case letters, digits and `_`: a plain identifier). */
export function storeSchema(key: string): string {
  if (!/^(users|spaces)\/[0-9a-f]{16}$/.test(key)) throw new Error(`not a team store key: ${key}`);
  return `trove_${key.replace('/', '_')}`;
}

/**
 * The stores of a team deployment that are open now: each is a whole Trove app of its own (its
 * database or schema, its indexes, caches, streams and MCP sessions), so nothing one user's
 * requests touch is reachable from another's. Opened on a store's first request, closed once
 * idle for TROVE_STORE_IDLE_SECONDS, and at most TROVE_MAX_OPEN_STORES at once (the least
 * recently used idle one closes first). The process's own store (`''`) is its own app, always open.
 */
export class StoreApps {
  private readonly logger = new Logger('Stores');
  private readonly stores = new Map<string, OpenStore>();
  private readonly opening = new Map<string, Promise<OpenStore>>();
  private readonly closing = new Map<string, Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly config: AppConfig,
    own: { handle: RequestHandler; upgrade: UpgradeHandler },
    private readonly factory: StoreAppFactory,
  ) {
    this.stores.set('', { key: '', ...own, active: 0, lastUsed: Date.now(), app: null });
    this.sweeper = setInterval(
      () => void this.closeIdle(),
      Math.min(10_000, (config.storeIdleSeconds * 1000) / 2),
    ).unref();
  }

  /** Team stores open now (the process's own not counted). */
  get openCount(): number {
    return this.stores.size - 1;
  }

  /** The open store `key`, opened first if need be; the caller must `release` it once done. */
  async acquire(key: string): Promise<OpenStore> {
    let store = this.stores.get(key);
    if (!store) {
      if (this.closed) throw new Error('the server is closing');
      await this.closing.get(key);
      store = this.stores.get(key) ?? (await this.open(key));
    }
    store.active++;
    store.lastUsed = Date.now();
    return store;
  }

  release(store: OpenStore): void {
    store.active--;
    store.lastUsed = Date.now();
  }

  private open(key: string): Promise<OpenStore> {
    let pending = this.opening.get(key);
    if (!pending) {
      pending = (async () => {
        await this.makeRoom();
        const started = Date.now();
        const app = await this.factory(storeAppConfig(this.config, key));
        const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
        await fastify.ready();
        const server = app.getHttpServer();
        const store: OpenStore = {
          key,
          app,
          handle: fastify.routing as RequestHandler,
          upgrade: (request, socket, head) => void server.emit('upgrade', request, socket, head),
          active: 0,
          lastUsed: Date.now(),
        };
        this.stores.set(key, store);
        this.logger.debug(`opened store ${key} in ${Date.now() - started} ms (${this.openCount} open)`);
        return store;
      })().finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  /** At the cap: closes the least recently used idle stores until one more fits. */
  private async makeRoom(): Promise<void> {
    const over = this.openCount + this.opening.size - this.config.maxOpenStores + 1;
    if (over <= 0) return;
    const idle = [...this.stores.values()]
      .filter((s) => s.app && s.active === 0)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    await Promise.all(idle.slice(0, over).map((s) => this.close(s)));
  }

  private async closeIdle(): Promise<void> {
    const before = Date.now() - this.config.storeIdleSeconds * 1000;
    const idle = [...this.stores.values()].filter((s) => s.app && s.active === 0 && s.lastUsed < before);
    await Promise.all(idle.map((s) => this.close(s)));
  }

  private close(store: OpenStore): Promise<void> {
    if (this.stores.get(store.key) !== store) return this.closing.get(store.key) ?? Promise.resolve();
    this.stores.delete(store.key);
    const done = (async () => {
      try {
        await store.app!.close();
        this.logger.debug(`closed store ${store.key} (${this.openCount} open)`);
      } catch (error) {
        this.logger.error(`closing store ${store.key} failed: ${(error as Error).message}`);
      }
    })().finally(() => this.closing.delete(store.key));
    this.closing.set(store.key, done);
    return done;
  }

  /** Closes every team store (the process's own app is closed by whoever opened it). */
  async closeAll(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.stores.values()].filter((s) => s.app).map((s) => this.close(s)));
    await Promise.all([...this.closing.values()]);
  }

  /** The open team stores' apps (the metrics' state gauges sum over them). */
  apps(): NestFastifyApplication[] {
    return [...this.stores.values()].flatMap((s) => (s.app ? [s.app] : []));
  }
}
