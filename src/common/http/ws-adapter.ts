import { INestApplicationContext, Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage } from 'node:http';
import type { Server } from 'ws';
import { AppConfig } from '../config/app-config';
import { AccessPolicy } from './access';
import { localRateLimitStore } from './rate-limit-store';

/** Upgrades counted against TROVE_RATE_LIMIT_QGPT. */
const QGPT_STREAM = '/qgpt/stream';

/**
 * `@nestjs/platform-ws` on the HTTP port (gateways route by exact path; any other path is
 * refused), with the socket policy of every gateway in one place: the upgrade passes the same
 * access checks as any HTTP request (Host allow-list, an allowed browser Origin, the API key
 * when keys are configured; otherwise 403 / 401 on the upgrade), incoming messages are
 * capped at TROVE_WS_MAX_PAYLOAD (a larger one closes the socket with 1009), no compression.
 */
export class TroveWsAdapter extends WsAdapter {
  private readonly log = new Logger('WebSocket');
  private readonly access: AccessPolicy;
  /** Upgrades per client, counted as @fastify/rate-limit counts HTTP requests. */
  private readonly upgrades = localRateLimitStore(5000);

  constructor(
    app: INestApplicationContext,
    private readonly config: AppConfig,
  ) {
    super(app);
    this.access = new AccessPolicy(config);
  }

  override create(port: number, options: Record<string, unknown> = {}): Server {
    return super.create(port, {
      ...options,
      maxPayload: this.config.wsMaxPayload,
      perMessageDeflate: false,
      verifyClient: (
        info: { origin?: string; req: IncomingMessage },
        done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void,
      ) => {
        const path = (info.req.url ?? '/').split('?')[0];
        const refusal = this.access.check(path, info.req.headers);
        if (refusal) {
          this.log.debug(`refused WebSocket upgrade to ${info.req.url}: ${refusal.message}`);
          return done(false, refusal.status, refusal.message);
        }
        const max = this.config.rateLimitQgpt;
        if (path !== QGPT_STREAM || max === 0) return done(true);
        const who = this.access.keyIdentity(info.req.headers) ?? `ip:${info.req.socket.remoteAddress}`;
        this.upgrades.incr(
          `qgpt-stream|${who}`,
          (_error, state) => {
            if (state.current <= max) return done(true);
            const seconds = Math.ceil(state.ttl / 1000);
            done(false, 429, `rate limit of ${max} requests per minute reached; retry after ${seconds} s`, { 'Retry-After': String(seconds) });
          },
          60_000,
          max,
        );
      },
    });
  }

  /** Client-side failures (a too-large message, a reset) are the client's business: debug level. */
  override bindErrorHandler(server: Server): Server {
    server.on('connection', (socket) => socket.on('error', (error: Error) => this.log.debug(error.message)));
    server.on('error', (error: Error) => this.log.error(error.message));
    return server;
  }
}
