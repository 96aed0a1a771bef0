import { INestApplicationContext, Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server } from 'ws';
import { AppConfig } from '../config/app-config';
import { AccessPolicy } from './access';
import { errorBody } from '../errors/error-body';
import { localRateLimitStore } from './rate-limit-store';

/** Upgrades counted against TROVE_RATE_LIMIT_QGPT. */
const QGPT_STREAM = '/qgpt/stream';

/** Where `/model/{model}/download/progress` is served: gateways route by exact path. */
export const MODEL_DOWNLOAD_PATH = '/model/download/progress';

/** Stream paths with an id in them, handed to the gateway of `path` with the id as the query parameter `param`. */
const WITH_ID: Array<{ pattern: RegExp; path: string; param: string }> = [
  { pattern: /^\/model\/([^/?#]+)\/download\/progress\/?(?=$|\?)/, path: MODEL_DOWNLOAD_PATH, param: 'model' },
];

/** `/model/<id>/download/progress?x=1` → `/model/download/progress?model=<id>&x=1`; any other URL as it is. */
export function routedUpgradeUrl(url: string): string {
  for (const { pattern, path, param } of WITH_ID) {
    const match = pattern.exec(url);
    if (!match) continue;
    const rest = url.slice(match[0].length).replace(/^\?/, '');
    return `${path}?${param}=${match[1]}${rest ? `&${rest}` : ''}`;
  }
  return url;
}

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

  private routing = false;
  /** The paths of the gateways (each `create` is one). */
  private readonly paths = new Set<string>();

  override create(port: number, options: Record<string, unknown> = {}): Server {
    if (typeof options.path === 'string') this.paths.add(options.path);
    // Before the adapter's own upgrade listener (which matches exact paths): paths with an id are
    // handed to their gateway's path, and an upgrade to no stream at all gets a 404 (the adapter
    // would drop the connection without an answer).
    if (!this.routing && this.httpServer) {
      this.routing = true;
      (this.httpServer as import('node:http').Server).prependListener('upgrade', (request: IncomingMessage, socket: Duplex) => {
        if (request.url) request.url = routedUpgradeUrl(request.url);
        const path = (request.url ?? '/').split('?')[0];
        if (this.paths.has(path)) return;
        this.log.debug(`refused WebSocket upgrade to ${request.url}: no such stream`);
        const body = JSON.stringify(errorBody(404, `no WebSocket stream at ${path}`));
        socket.end(
          `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
    }
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
        this.log.debug(`WebSocket upgrade to ${info.req.url}`);
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
