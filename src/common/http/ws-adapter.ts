import { INestApplicationContext, Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import { type IncomingMessage, type Server as HttpServer, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server } from 'ws';
import { AppConfig } from '../config/app-config';
import { ErrorBody, errorBody } from '../errors/error-body';
import { AccessPolicy } from './access';
import { callerOf } from './team-caller';
import { localRateLimitStore } from './rate-limit-store';
import { SdkOperationIndex, notImplementedBody } from './unserved-operations';

type UpgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

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
 * `@nestjs/platform-ws` on the HTTP port (gateways route by exact path), with the socket policy
 * of every gateway in one place: the upgrade passes the same access checks as any HTTP request
 * (Host allow-list, an allowed browser Origin, the API key when keys are configured; otherwise
 * 403 / 401 on the upgrade), incoming messages are capped at TROVE_WS_MAX_PAYLOAD (a larger one
 * closes the socket with 1009), no compression. An upgrade to a path no gateway has is answered
 * in JSON after the same checks, as an HTTP request would be: a WebSocket operation of the
 * official SDK that Trove does not serve is a 501 naming it and saying why, any other path a 404
 * (Nest's adapter drops such a socket without a word).
 */
export class TroveWsAdapter extends WsAdapter {
  private readonly log = new Logger('WebSocket');
  private readonly access: AccessPolicy;
  /** Upgrades per client, counted as @fastify/rate-limit counts HTTP requests. */
  private readonly upgrades = localRateLimitStore(5000);
  private readonly sdkOperations = new SdkOperationIndex();

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
        const refusal = this.access.check(path, info.req.headers, undefined, callerOf(info.req) !== undefined);
        if (refusal) {
          this.log.debug(`refused WebSocket upgrade to ${info.req.url}: ${refusal.message}`);
          return done(false, refusal.status, refusal.message);
        }
        const max = this.config.rateLimitQgpt;
        this.log.debug(`WebSocket upgrade to ${info.req.url}`);
        if (path !== QGPT_STREAM || max === 0) return done(true);
        const user = callerOf(info.req)?.userId;
        const who = user
          ? `user:${user}`
          : (this.access.keyIdentity(info.req.headers) ?? `ip:${info.req.socket.remoteAddress}`);
        this.upgrades.incr(
          `qgpt-stream|${who}`,
          (_error, state) => {
            if (state.current <= max) return done(true);
            const seconds = Math.ceil(state.ttl / 1000);
            done(false, 429, `rate limit of ${max} requests per minute reached; retry after ${seconds} s`, {
              'Retry-After': String(seconds),
            });
          },
          60_000,
          max,
        );
      },
    });
  }

  /**
   * Nest's adapter adds one `upgrade` listener to the HTTP server, which hands an upgrade to the
   * gateway of its path and destroys the socket of any other: it is kept for the gateways' paths
   * and replaced for the others by `refuseUpgrade` (test/contract/ws-adapter.spec.ts).
   */
  protected override ensureHttpServerExists(port: number, httpServer?: HttpServer): HttpServer | undefined {
    const created = super.ensureHttpServerExists(port, httpServer);
    if (!created) return created;
    const nest = created.listeners('upgrade').at(-1) as UpgradeListener;
    created.removeListener('upgrade', nest);
    created.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Paths with an id are handed to their gateway's path (gateways route by exact path).
      if (request.url) request.url = routedUpgradeUrl(request.url);
      const path = new URL(request.url ?? '/', 'ws://localhost').pathname;
      const gateways = (this.wsServersRegistry.get(port) ?? []) as Array<{ path: string }>;
      if (gateways.some((gateway) => gateway.path === path)) return nest(request, socket, head);
      this.refuseUpgrade(request, socket, path);
    });
    return created;
  }

  /** Answers an upgrade no gateway takes, in JSON: refused access (403 / 401), an SDK stream Trove does not serve (501), else 404. */
  private refuseUpgrade(request: IncomingMessage, socket: Duplex, path: string): void {
    socket.on('error', () => socket.destroy());
    const refusal = this.access.check(path, request.headers, undefined, callerOf(request) !== undefined);
    const op = this.sdkOperations.match('GET', path);
    const body: ErrorBody = refusal
      ? errorBody(refusal.status, refusal.message)
      : op?.websocket
        ? notImplementedBody(op)
        : errorBody(404, `no WebSocket stream at ${path}`);
    this.log.debug(`answered a WebSocket upgrade to ${request.url} with ${body.statusCode}`);
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }

  /** Client-side failures (a too-large message, a reset) are the client's business: debug level. */
  override bindErrorHandler(server: Server): Server {
    server.on('connection', (socket) => socket.on('error', (error: Error) => this.log.debug(error.message)));
    server.on('error', (error: Error) => this.log.error(error.message));
    return server;
  }
}
