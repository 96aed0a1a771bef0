import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { AppConfig } from '../config/app-config';
import { originAllowed } from './cors';

/** Why a request (or a WebSocket upgrade) is refused before anything else looks at it. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/**
 * Paths anyone may reach without an API key: health and readiness (load balancers, container
 * health checks, orchestrators' probes), and the web app's page and files (they hold no data;
 * the page asks for a key and sends it with every API call it makes).
 */
export const PUBLIC_PATHS = new Set(['/.well-known/health', '/.well-known/ready', '/']);
export const PUBLIC_PREFIX = '/_app/';

/** The Prometheus metrics route: TROVE_METRICS_TOKEN, when set, reads it (and the API keys do). */
export const METRICS_ROUTE = '/metrics';

/**
 * A browser cannot set headers on a WebSocket: the web app offers the subprotocols `trove` and
 * `trove.key.<the key, base64url>`, and the server picks `trove` (ws picks the first offered).
 */
const KEY_PROTOCOL = /^trove\.key\.([A-Za-z0-9_-]+)$/;
/** On a team deployment, `trove.space.<name, base64url>` is the WebSocket's `X-Trove-Space` header. */
const SPACE_PROTOCOL = /^trove\.space\.([A-Za-z0-9_-]+)$/;

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The API key a request carries: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const protocols = headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') {
    for (const protocol of protocols.split(',')) {
      const match = KEY_PROTOCOL.exec(protocol.trim());
      if (match) return Buffer.from(match[1], 'base64url').toString('utf8') || null;
    }
  }
  return null;
}

/** The header that selects a shared space of a team deployment for a request (its name or id, or `*`). */
export const SPACE_HEADER = 'x-trove-space';

/** The space a request asks for: its `X-Trove-Space` header, or a WebSocket's `trove.space.<base64url>` subprotocol. */
export function presentedSpace(headers: IncomingHttpHeaders): string | null {
  const header = headers[SPACE_HEADER];
  if (typeof header === 'string') return header.trim() || null;
  const protocols = headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') {
    for (const protocol of protocols.split(',')) {
      const match = SPACE_PROTOCOL.exec(protocol.trim());
      if (match) return Buffer.from(match[1], 'base64url').toString('utf8').trim() || null;
    }
  }
  return null;
}

/** The request comes from a page of this very server (its Origin is the Host it asks): the web app. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/** The host name of a Host header, without its port, lower case (`[::1]` keeps its brackets). */
function hostName(host: string | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(?::\d+)?$/.exec(host.trim());
  return match ? match[1].toLowerCase() : null;
}

/**
 * A browser request from another site's page that carries no Origin: what `<img src>`, a link
 * or a no-cors `fetch` sends for a GET (browsers add Origin to CORS requests and to other
 * methods, which `check` then judges). Such a request must not change anything, so a GET that
 * does (GET /os/restart) refuses it. `Sec-Fetch-Site` is sent by current browsers, never by the
 * SDKs or the CLI; `none` is the user's own navigation.
 */
export function crossSiteWithoutOrigin(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site'];
  return typeof site === 'string' && site !== 'same-origin' && site !== 'none' && headers.origin === undefined;
}

/**
 * The checks every HTTP request and every WebSocket upgrade passes first, in this order:
 * the Host header is one of ours (a DNS-rebinding page sends its own name), a browser's Origin
 * is allowed (its own pages' Origin always is), and an API key is presented when keys are configured. Keys are compared as
 * SHA-256 digests in constant time.
 */
export class AccessPolicy {
  private readonly keys: Buffer[];
  private readonly metricsToken: Buffer | null;
  private readonly anyHost: boolean;
  private readonly hosts: Set<string>;

  constructor(private readonly config: AppConfig) {
    this.keys = config.apiKeys.map(digest);
    this.metricsToken = config.metricsToken ? digest(config.metricsToken) : null;
    this.anyHost = config.allowedHosts.includes('*');
    this.hosts = new Set(config.allowedHosts);
  }

  get authenticationEnabled(): boolean {
    return this.keys.length > 0;
  }

  /** The key's digest when it is one of ours (a stable rate-limit identity), otherwise null. */
  keyIdentity(headers: IncomingHttpHeaders): string | null {
    const key = presentedKey(headers);
    if (!key) return null;
    const presented = digest(key);
    return this.keys.some((k) => timingSafeEqual(k, presented)) ? presented.toString('hex').slice(0, 16) : null;
  }

  /**
   * `route` is the route template the request matched (Fastify's), when it matched one: the
   * metrics rule goes by it, not by the path text, so no spelling of the path (a trailing
   * slash, percent-encoding) that reaches the route escapes its rule.
   */
  check(path: string, headers: IncomingHttpHeaders, route?: string, teamCaller = false): Refusal | null {
    if (!this.anyHost) {
      const host = hostName(headers.host);
      if (!host || !this.hosts.has(host)) {
        return { status: 403, message: `Host "${headers.host ?? ''}" is not allowed (TROVE_ALLOWED_HOSTS)` };
      }
    }
    const origin = headers.origin;
    if (
      typeof origin === 'string' &&
      origin !== 'null' &&
      !sameOrigin(origin, headers.host) &&
      !originAllowed(origin, this.config.corsOrigins)
    ) {
      return { status: 403, message: `Origin "${origin}" is not allowed (TROVE_CORS_ORIGINS)` };
    }
    if (origin === 'null') return { status: 403, message: 'Origin "null" (sandboxed or file pages) is not allowed' };
    // With a scrape token the metrics need it or an API key, also in local mode: the token is
    // set to keep them from whoever else can reach the port.
    // A team deployment's front authenticated the caller already (an admin, for the metrics).
    if (teamCaller) return null;
    if (route === METRICS_ROUTE && this.metricsToken) {
      if (this.metricsReader(headers)) return null;
      return {
        status: 401,
        message: presentedKey(headers)
          ? 'the metrics token is not valid'
          : 'the metrics need a token: send Authorization: Bearer <TROVE_METRICS_TOKEN or an API key>',
      };
    }
    if (this.keys.length && !PUBLIC_PATHS.has(path) && !path.startsWith(PUBLIC_PREFIX) && !this.keyIdentity(headers)) {
      return {
        status: 401,
        message: presentedKey(headers)
          ? 'the API key is not valid'
          : 'an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>',
      };
    }
    return null;
  }

  /**
   * Who a request is, for the logs (never the key itself): `key:<keyIdentity>`, `metrics` (the
   * scrape token), `local` when no keys are configured (the one local user), else `anonymous`
   * (a public route, or a request refused).
   */
  caller(headers: IncomingHttpHeaders): string {
    const identity = this.keyIdentity(headers);
    if (identity) return `key:${identity}`;
    if (this.metricsTokenPresented(headers)) return 'metrics';
    return this.keys.length ? 'anonymous' : 'local';
  }

  /** The request carries the metrics token or one of the API keys (the keys are today's admins). */
  private metricsReader(headers: IncomingHttpHeaders): boolean {
    return this.metricsTokenPresented(headers) || this.keyIdentity(headers) !== null;
  }

  private metricsTokenPresented(headers: IncomingHttpHeaders): boolean {
    const key = this.metricsToken && presentedKey(headers);
    return Boolean(key) && timingSafeEqual(this.metricsToken!, digest(key as string));
  }
}
