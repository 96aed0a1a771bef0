import { Logger, type INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { timingSafeEqual } from 'node:crypto';
import {
  STATUS_CODES,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { AppConfig } from '../common/config/app-config';
import { PUBLIC_PATHS, PUBLIC_PREFIX, presentedKey, presentedSpace } from '../common/http/access';
import { errorBody } from '../common/errors/error-body';
import { Forbidden, NotFound } from '../common/errors/domain-errors';
import { StoreLabel, TeamCaller, auditAction, readOnlyRequest, setCaller } from '../common/http/team-caller';
import { AuditLog } from './audit-log';
import { AuthFailures } from './auth-failures';
import { ControlStore, User } from './control-store';
import { StoreQuota } from './store-quota';
import { TeamDirectory } from './team-directory';
import {
  StoreApps,
  type OpenStore,
  type RequestHandler,
  type StoreAppFactory,
  type UpgradeHandler,
} from './store-apps';
import { TOKEN_PREFIX, tokenDigest } from './tokens';

/** How often the directory (users, tokens, spaces) is checked for changes made by `trove users ...`. */
const POLL_MS = 1000;
/** The per-user base URL: `/u/<token>/...` is `/...` with that token (clients that cannot send headers). */
const USER_PREFIX = /^\/u\/(trove_[A-Za-z0-9_-]{20,100})(?=\/|\?|$)/;
/** `X-Trove-Space: *`: the caller's own store, its searches looking in every space too. */
const EVERYWHERE = '*';
/** The web app's session cookie (OpenID Connect sign-in, docs/TEAMS.md). */
export const SESSION_COOKIE = 'trove_session';
/** Routes that act on the process, not a store: only admins, and answered by the process's own app. */
const ADMIN_ONLY = new Set(['/os/restart', '/os/terminate']);
/** Routes answered by the process's own app for any signed-in user: the applets' listeners go through this front too. */
const PROCESS_ROUTES = /^\/os\/applet\//;
const METRICS = '/metrics';
/** What a full store may still do: reads, deletes, exports (to make room or leave) and copies out of it. */
const FREES_OR_READS = new Set([null, 'delete', 'export', 'copy']);

/** Where sign-in happens (the OIDC routes of sign-in.ts): public, served by the front itself. */
export const AUTH_PREFIX = '/auth/';

export interface Sessions {
  /** The user a session cookie's id belongs to, and the CSRF token its unsafe requests must carry. */
  lookup(id: string): Promise<{ user: User; csrf: string } | null>;
  /** Answers the sign-in routes (`/auth/...`); false when none is configured. */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
}

function cookie(headers: IncomingHttpHeaders, name: string): string | null {
  const header = headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function sendJson(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(errorBody(status, message));
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(body);
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}\r\n${body}`,
  );
}

interface Decision {
  status?: number;
  message?: string;
  /** Where the request goes: a store to open, or the process's own app. */
  store?: string;
  caller?: TeamCaller;
}

/**
 * The front door of a deployment with users (docs/TEAMS.md). Every request and WebSocket upgrade
 * of the listening server (and of the legacy and applet ports, which hand theirs to the same
 * listeners) passes here first. With no user defined it hands everything to the process's own
 * app at once: Trove behaves exactly as without it. Once users exist, every route but health,
 * readiness, the web app's files and sign-in needs a user's token (a Bearer or X-API-Key header,
 * the WebSocket subprotocol `trove.key.<base64url>`, the `/u/<token>` base URL, or the web app's
 * session cookie); the request then goes to the app of the caller's store (or of the space the
 * `X-Trove-Space` header selects), which the front opens if it is not open.
 */
export class TeamFront {
  private readonly logger = new Logger('Team');
  private readonly directory: TeamDirectory;
  private readonly failures: AuthFailures;
  private readonly quota: StoreQuota;
  private readonly poll: NodeJS.Timeout;
  /** The digest of TROVE_METRICS_TOKEN, if set. */
  private readonly metricsToken: string | null;
  private storeApps: StoreApps | null = null;
  /** The process's own app (the store `''`, adopted by the first user). */
  private ownApp: INestApplicationContext | null = null;
  sessions: Sessions | null = null;

  private constructor(
    private readonly config: AppConfig,
    readonly control: ControlStore,
    private readonly factory: StoreAppFactory,
    readonly audit: AuditLog,
  ) {
    this.directory = new TeamDirectory(control);
    this.failures = new AuthFailures(audit);
    this.quota = new StoreQuota(config, control);
    this.poll = setInterval(() => {
      void this.directory.refresh();
      this.failures.write(false);
    }, POLL_MS).unref();
    this.metricsToken = config.metricsToken ? tokenDigest(config.metricsToken) : null;
  }

  /** Opens the team directory (made empty if new) and reads it. */
  static async start(config: AppConfig, factory: StoreAppFactory): Promise<TeamFront> {
    const control = await ControlStore.open(config);
    const front = new TeamFront(config, control, factory, new AuditLog(control, config.auditRetentionDays));
    await front.refresh();
    return front;
  }

  /** The open stores (after `install`). */
  get stores(): StoreApps {
    return this.storeApps!;
  }

  /** Users exist: the front authenticates every request. */
  get active(): boolean {
    return this.directory.hasUsers;
  }

  /**
   * Puts the front before the listeners the app attached to its server (Fastify's request
   * handler, the WebSocket adapter's upgrade handler): call it after `app.init()`, before
   * `listen`, so that no request ever reaches the app around it.
   */
  install(app: NestFastifyApplication): void {
    const server = app.getHttpServer() as Server;
    this.ownApp = app;
    const requests = server.listeners('request') as RequestHandler[];
    const upgrades = server.listeners('upgrade') as UpgradeHandler[];
    server.removeAllListeners('request');
    server.removeAllListeners('upgrade');
    server.removeAllListeners('checkContinue'); // Node then answers 100 itself and emits 'request'
    const own = {
      handle: ((request, response) =>
        requests.forEach((listener) => listener.call(server, request, response))) as RequestHandler,
      upgrade: ((request, socket, head) =>
        upgrades.forEach((listener) => listener.call(server, request, socket, head))) as UpgradeHandler,
    };
    this.storeApps = new StoreApps(this.config, own, this.factory);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      // Sign-in is answered before any user exists too: with TROVE_OIDC_CREATE_USERS on, the first sign-in makes the first user.
      if (this.sessions && request.url?.startsWith(AUTH_PREFIX) && this.sessions.handle(request, response)) return;
      if (!this.active && !this.carriesUserToken(request)) return own.handle(request, response);
      this.request(request, response, own.handle).catch((error: Error) => {
        this.logger.error(`request failed before its store answered: ${error.stack ?? error.message}`);
        if (!response.headersSent)
          sendJson(response, 503, 'the store could not be opened; retry in a moment', { 'retry-after': '5' });
        else response.destroy();
      });
    });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (!this.active && !this.carriesUserToken(request)) return own.upgrade(request, socket, head);
      this.upgrade(request, socket, head, own.upgrade).catch((error: Error) => {
        this.logger.error(`upgrade failed before its store answered: ${error.message}`);
        refuseUpgrade(socket, 503, 'the store could not be opened; retry in a moment');
      });
    });
  }

  async close(): Promise<void> {
    clearInterval(this.poll);
    this.failures.write(true);
    await this.storeApps?.closeAll();
    await this.audit.close();
    await this.control.close();
  }

  /**
   * The request presents a token of Trove's shape while no user is known: one may have been made
   * a moment ago (`trove users add`), so the front looks at the directory before serving it.
   */
  private carriesUserToken(request: IncomingMessage): boolean {
    return Boolean(
      request.url?.startsWith(`/u/${TOKEN_PREFIX}`) || presentedKey(request.headers)?.startsWith(TOKEN_PREFIX),
    );
  }

  /** While no user is known, after a look at the directory (at most every 200 ms: TeamDirectory.refreshForMiss). */
  private async stillNoUsers(): Promise<boolean> {
    if (this.active) return false;
    await this.directory.refreshForMiss();
    return !this.active;
  }

  private async request(request: IncomingMessage, response: ServerResponse, own: RequestHandler): Promise<void> {
    if (await this.stillNoUsers()) return own(request, response);
    const decision = await this.decide(request, false);
    if (decision.status) {
      const headers: Record<string, string> = decision.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
      // The refused request's body is never read: the connection cannot carry another request
      // after this answer (the client's next one on it would be read from inside this body).
      if (hasBody(request)) {
        headers.connection = 'close';
        request.resume();
      }
      return sendJson(response, decision.status, decision.message!, headers);
    }
    const store = await this.stores.acquire(decision.store!);
    let released = false;
    const release = () => {
      if (!released) this.stores.release(store);
      released = true;
    };
    response.once('close', release);
    if (decision.caller) setCaller(request, decision.caller);
    store.handle(request, response);
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, own: UpgradeHandler): Promise<void> {
    if (await this.stillNoUsers()) return own(request, socket, head);
    const decision = await this.decide(request, true);
    if (decision.status) return refuseUpgrade(socket, decision.status, decision.message!);
    const store: OpenStore = await this.stores.acquire(decision.store!);
    socket.once('close', () => this.stores.release(store));
    if (decision.caller) setCaller(request, decision.caller);
    store.upgrade(request, socket, head);
  }

  /** Who the request comes from and where it goes; or the refusal. Strips the `/u/<token>` prefix. */
  private async decide(request: IncomingMessage, upgrade: boolean): Promise<Decision> {
    let url = request.url ?? '/';
    const prefixed = USER_PREFIX.exec(url);
    let token: string | null = null;
    if (prefixed) {
      token = prefixed[1];
      url = url.slice(prefixed[0].length) || '/';
      if (!url.startsWith('/')) url = `/${url}`;
      request.url = url;
    }
    const path = url.split('?')[0];
    const base = prefixed ? `/u/${token}` : '';
    if (!prefixed && (PUBLIC_PATHS.has(path) || path.startsWith(PUBLIC_PREFIX))) return { store: '' };

    token ??= presentedKey(request.headers);
    // A Prometheus scraper's token: the metrics only, checked again by the process's own app.
    if (
      path === METRICS &&
      token &&
      this.metricsToken &&
      timingSafeEqual(Buffer.from(tokenDigest(token)), Buffer.from(this.metricsToken))
    ) {
      return { store: '' };
    }
    let user = token ? await this.directory.userOf(token) : null;
    if (!user && !token) {
      const id = cookie(request.headers, SESSION_COOKIE);
      const session = id && this.sessions ? await this.sessions.lookup(id) : null;
      if (session) {
        // A session is a browser's: its unsafe requests carry the CSRF token the page was given.
        const unsafe = !upgrade && !['GET', 'HEAD', 'OPTIONS'].includes(request.method ?? 'GET');
        if (unsafe && request.headers['x-csrf-token'] !== session.csrf)
          return { status: 403, message: 'the request lacks a valid X-CSRF-Token header' };
        user = session.user;
      }
    }
    const client = request.socket.remoteAddress ?? null;
    if (!user) {
      this.failures.failed(client ?? 'unknown', request.method ?? null, path);
      return {
        status: 401,
        message: token
          ? 'the token is not valid'
          : "this Trove has users: send a user's token (Authorization: Bearer <token> or X-API-Key: <token>)",
      };
    }
    if (path === METRICS) {
      if (!user.admin) return { status: 403, message: 'the metrics are for admins (or TROVE_METRICS_TOKEN)' };
      return { store: '', caller: this.caller(user, '', 'owner', client, base) };
    }
    if (ADMIN_ONLY.has(path)) {
      if (!user.admin) return { status: 403, message: `${path} acts on the whole server: only an admin may call it` };
      return { store: '', caller: this.caller(user, '', 'owner', client, base) };
    }
    if (PROCESS_ROUTES.test(path)) return { store: '', caller: this.caller(user, user.store, 'owner', client, base) };

    const wanted = presentedSpace(request.headers);
    let everywhere = false;
    if (wanted === EVERYWHERE) {
      // A look across stores is a read of the caller's own store that also reads the spaces.
      if (upgrade || !readOnlyRequest(request.method ?? 'GET', path)) {
        return {
          status: 400,
          message: `X-Trove-Space: ${EVERYWHERE} is for searches; name one space (or none) to change or follow one`,
        };
      }
      everywhere = true;
    } else if (wanted) {
      const membership = this.directory
        .membershipsOf(user.id)
        .find((m) => m.space.name === wanted || m.space.id === wanted);
      if (!membership) return { status: 404, message: `no space "${wanted}" that you belong to` };
      const method = request.method ?? 'GET';
      if (membership.role === 'reader' && !upgrade && !readOnlyRequest(method, path)) {
        return { status: 403, message: `you are a reader of "${membership.space.name}": only its editors change it` };
      }
      if (membership.role === 'reader' && /^\/model_context_protocol\//.test(path)) {
        return { status: 403, message: `MCP in "${membership.space.name}" needs the editor role (its tools can save)` };
      }
      return {
        store: membership.space.store,
        caller: this.caller(user, membership.space.store, membership.role, client, base),
      };
    }
    if (!upgrade && !FREES_OR_READS.has(auditAction(request.method ?? 'GET', path))) {
      const refusal = await this.quota.refusal(user.store);
      if (refusal) return { status: 413, message: refusal };
    }
    const caller = this.caller(user, user.store, 'owner', client, base);
    caller.everywhere = everywhere;
    return { store: user.store, caller };
  }

  private caller(
    user: User,
    store: string,
    role: TeamCaller['role'],
    client: string | null,
    basePath: string,
  ): TeamCaller {
    return {
      basePath,
      userId: user.id,
      userName: user.name,
      admin: user.admin,
      store,
      role,
      audit: (record) => this.audit.append({ userId: user.id, userName: user.name, client, store, ...record }),
      everywhere: false,
      // Spaces have no quota of their own: the quota is a user's.
      quotaRefusal: () => (store === user.store ? this.quota.refusal(store) : Promise.resolve(null)),
      stores: () => this.readable(user).map((s) => s.label),
      inEachStore: (work) => this.inEachStore(user, work),
      inSpace: (space, write, work) => this.inSpace(user, space, write, work),
    };
  }

  /** The stores a user may read, labelled: their own, then their spaces by name. */
  private readable(user: User): Array<{ key: string; label: StoreLabel }> {
    const spaces = [...this.directory.membershipsOf(user.id)].sort((a, b) => a.space.name.localeCompare(b.space.name));
    return [
      { key: user.store, label: { space: null, name: 'mine', role: 'owner' as const } },
      ...spaces.map((m) => ({ key: m.space.store, label: { space: m.space.id, name: m.space.name, role: m.role } })),
    ];
  }

  private async inEachStore<T>(
    user: User,
    work: (app: INestApplicationContext) => Promise<T>,
  ): Promise<Array<{ store: StoreLabel; value: T }>> {
    const answers = await Promise.all(
      this.readable(user).map(async ({ key, label }): Promise<{ store: StoreLabel; value: T } | null> => {
        try {
          const value: T = await this.withStore(key, work);
          return { store: label, value };
        } catch (error) {
          this.logger.warn(
            `a look in ${label.space ? `space ${label.name}` : 'the own store'} failed: ${(error as Error).message}`,
          );
          return null;
        }
      }),
    );
    return answers.filter((a): a is { store: StoreLabel; value: T } => a !== null);
  }

  private async inSpace<T>(
    user: User,
    wanted: string,
    write: boolean,
    work: (app: INestApplicationContext, label: StoreLabel, store: string) => Promise<T>,
  ): Promise<T> {
    const membership = this.directory
      .membershipsOf(user.id)
      .find((m) => m.space.name === wanted.trim() || m.space.id === wanted.trim());
    if (!membership) throw new NotFound(`no space "${wanted.trim()}" that you belong to`);
    if (write && membership.role !== 'editor')
      throw new Forbidden(`you are a reader of "${membership.space.name}": only its editors change it`);
    const label: StoreLabel = { space: membership.space.id, name: membership.space.name, role: membership.role };
    return this.withStore(membership.space.store, (app) => work(app, label, membership.space.store));
  }

  /** `work` with a store's app, the store held open meanwhile. */
  private async withStore<T>(key: string, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
    const store = await this.stores.acquire(key);
    try {
      return await work(store.app ?? this.ownApp!);
    } finally {
      this.stores.release(store);
    }
  }

  /** The user of an id (sessions name their user by id). */
  userById(id: string): User | null {
    return this.directory.userById(id);
  }

  /** Picks up what `trove users|spaces` changed (the directory's version moved). */
  refresh(): Promise<void> {
    return this.directory.refresh();
  }
}
