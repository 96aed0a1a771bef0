import { Logger } from '@nestjs/common';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as oidc from 'openid-client';
import { AppConfig } from '../common/config/app-config';
import { errorBody } from '../common/errors/error-body';
import { ControlError, User } from './control-store';
import { AUTH_PREFIX, SESSION_COOKIE, TeamFront, type Sessions } from './team-front';

/** The cookie naming a sign-in under way (its PKCE verifier, state and nonce are kept here, in memory). */
const PENDING_COOKIE = 'trove_oidc';
/** A sign-in under way must come back from the issuer within this time. */
const PENDING_MS = 10 * 60_000;
/** Sign-ins under way held at most (the oldest go first): an unauthenticated GET /auth/login adds one. */
const MAX_PENDING = 10_000;

interface Pending {
  verifier: string;
  state: string;
  nonce: string;
  expires: number;
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}

function redirect(response: ServerResponse, location: string, cookies: string[]): void {
  response.writeHead(302, { location, 'set-cookie': cookies, 'cache-control': 'no-store', 'content-length': 0 });
  response.end();
}

/** A user name (control store rules: letters, digits, `._@-`) from the identity's claims. */
function nameFrom(claims: Record<string, unknown>): string | null {
  const raw = [claims.preferred_username, claims.email, claims.sub].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  if (!raw) return null;
  const name = raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._@-]+/g, '-')
    .replace(/^[-.@]+|[-.@]+$/g, '')
    .slice(0, 64);
  return name || null;
}

/**
 * Sign-in for people (docs/TEAMS.md, "Sign-in (OpenID Connect)"): the authorization code flow
 * with PKCE against TROVE_OIDC_ISSUER (openid-client), a signed-in identity mapped to a Trove
 * user, and the web session that follows as an HttpOnly cookie whose unsafe requests carry
 * X-CSRF-Token (the front checks it). Its routes are answered by the team front before
 * authentication: GET /auth/login, GET /auth/callback, POST /auth/logout, GET /auth/session.
 */
export class SignIn implements Sessions {
  private readonly logger = new Logger('SignIn');
  private readonly pending = new Map<string, Pending>();
  private discovered: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly front: TeamFront,
    /** The callback URL: TROVE_OIDC_REDIRECT_URL, else http://HOST:PORT/auth/callback with the port listened on. */
    private readonly redirectUrl: () => string,
  ) {}

  private get configured(): boolean {
    return Boolean(this.config.oidcIssuer && this.config.oidcClientId);
  }

  private get secure(): boolean {
    return this.redirectUrl().startsWith('https:');
  }

  async lookup(id: string): Promise<{ user: User; csrf: string } | null> {
    const session = await this.front.control.session(id);
    if (!session) return null;
    let user = this.front.userById(session.userId);
    if (!user) {
      // A user created a moment ago (at their first sign-in): the front's directory is read anew.
      await this.front.refresh();
      user = this.front.userById(session.userId);
    }
    return user ? { user, csrf: session.csrf } : null;
  }

  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const url = new URL(request.url ?? '/', 'http://trove.invalid');
    const route = url.pathname.slice(AUTH_PREFIX.length);
    const method = request.method ?? 'GET';
    const work = (() => {
      if (route === 'session' && (method === 'GET' || method === 'HEAD')) return this.session(request, response);
      if (route === 'login' && method === 'GET') return this.login(response);
      if (route === 'callback' && method === 'GET') return this.callback(request, response, url);
      if (route === 'logout' && method === 'POST') return this.logout(request, response);
      return Promise.resolve(send(response, 404, errorBody(404, `no sign-in route ${method} ${url.pathname}`)));
    })();
    work.catch((error: Error) => {
      this.logger.error(`${method} ${url.pathname} failed: ${error.stack ?? error.message}`);
      if (!response.headersSent)
        send(
          response,
          502,
          errorBody(502, 'sign-in failed: the identity provider could not be reached or answered wrongly'),
        );
      else response.destroy();
    });
    return true;
  }

  private cookies(request: IncomingMessage): Record<string, string | undefined> {
    return request.headers.cookie ? parseCookies(request.headers.cookie) : {};
  }

  private issuer(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(
        new URL(this.config.oidcIssuer!),
        this.config.oidcClientId!,
        undefined,
        this.config.oidcClientSecret ? oidc.ClientSecretBasic(this.config.oidcClientSecret) : oidc.None(),
        // An http:// issuer (a test's, or one on a private network) is the operator's choice.
        this.config.oidcIssuer!.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: Error) => {
        this.discovered = null;
        throw error;
      });
    return this.discovered;
  }

  private async session(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const id = this.cookies(request)[SESSION_COOKIE];
    const session = id ? await this.lookup(id) : null;
    send(response, 200, {
      signedIn: Boolean(session),
      user: session ? { name: session.user.name, admin: session.user.admin } : null,
      csrf: session?.csrf ?? null,
      signIn: this.configured,
      issuer: this.configured ? new URL(this.config.oidcIssuer!).host : null,
    });
  }

  private async login(response: ServerResponse): Promise<void> {
    if (!this.configured)
      return send(response, 404, errorBody(404, 'sign-in is not configured (TROVE_OIDC_ISSUER, TROVE_OIDC_CLIENT_ID)'));
    const issuer = await this.issuer();
    const now = Date.now();
    for (const [key, value] of this.pending)
      if (value.expires < now || this.pending.size >= MAX_PENDING) this.pending.delete(key);
    const pending: Pending = {
      verifier: oidc.randomPKCECodeVerifier(),
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      expires: now + PENDING_MS,
    };
    const key = randomBytes(32).toString('base64url');
    this.pending.set(key, pending);
    const target = oidc.buildAuthorizationUrl(issuer, {
      redirect_uri: this.redirectUrl(),
      scope: 'openid profile email',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    const cookie = serializeCookie(PENDING_COOKIE, key, {
      httpOnly: true,
      sameSite: 'lax',
      path: AUTH_PREFIX,
      maxAge: PENDING_MS / 1000,
      secure: this.secure,
    });
    redirect(response, target.href, [cookie]);
  }

  private failed(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    message: string,
    extra: Record<string, string | string[]> = {},
  ): void {
    this.front.audit.append({
      userId: null,
      userName: null,
      action: 'auth.failed',
      method: request.method ?? null,
      route: '/auth/callback',
      record: null,
      status,
      client: request.socket.remoteAddress ?? null,
      store: null,
    });
    send(response, status, errorBody(status, message), extra);
  }

  private async callback(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    if (!this.configured)
      return send(response, 404, errorBody(404, 'sign-in is not configured (TROVE_OIDC_ISSUER, TROVE_OIDC_CLIENT_ID)'));
    const key = this.cookies(request)[PENDING_COOKIE];
    const pending = key ? this.pending.get(key) : undefined;
    if (key) this.pending.delete(key);
    const clear = serializeCookie(PENDING_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      path: AUTH_PREFIX,
      maxAge: 0,
      secure: this.secure,
    });
    if (!pending || pending.expires < Date.now()) {
      return this.failed(
        request,
        response,
        400,
        'no sign-in under way in this browser, or it expired: start again at /auth/login',
        { 'set-cookie': clear },
      );
    }
    if (url.searchParams.get('state') !== pending.state) {
      return this.failed(
        request,
        response,
        400,
        'the sign-in answer does not match the sign-in under way (state): start again at /auth/login',
        {
          'set-cookie': clear,
        },
      );
    }
    const issuer = await this.issuer();
    // The URL the issuer sent the browser to: the registered callback with this request's query.
    const current = new URL(this.redirectUrl());
    current.search = url.search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(issuer, current, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      const status =
        error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError ? 401 : 400;
      this.logger.warn(`sign-in refused: ${(error as Error).message}`);
      return this.failed(request, response, status, `the sign-in did not succeed: ${(error as Error).message}`, {
        'set-cookie': clear,
      });
    }
    const claims = tokens.claims()!;
    const issuerId = issuer.serverMetadata().issuer;
    let user = await this.front.control.userByIdentity(issuerId, claims.sub);
    if (!user) {
      if (!this.config.oidcCreateUsers) {
        return this.failed(
          request,
          response,
          403,
          'this identity is not a user of this Trove: ask an admin to add you (trove users add)',
          {
            'set-cookie': clear,
          },
        );
      }
      let profile: Record<string, unknown> = claims;
      if (!claims.preferred_username && !claims.email) {
        profile = { ...claims, ...(await oidc.fetchUserInfo(issuer, tokens.access_token, claims.sub)) };
      }
      user = await this.create(nameFrom(profile) ?? 'user', issuerId, claims.sub);
      await this.front.refresh();
    }
    const session = await this.front.control.addSession(user.id, this.config.sessionHours * 3_600_000);
    this.front.audit.append({
      userId: user.id,
      userName: user.name,
      action: 'sign-in',
      method: 'GET',
      route: '/auth/callback',
      record: null,
      status: 302,
      client: request.socket.remoteAddress ?? null,
      store: user.store,
    });
    const cookie = serializeCookie(SESSION_COOKIE, session.id, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: this.config.sessionHours * 3600,
      secure: this.secure,
    });
    redirect(response, '/', [cookie, clear]);
  }

  /** A new user for a first sign-in: the name from the claims, made unique with a suffix when taken. */
  private async create(base: string, issuer: string, subject: string): Promise<User> {
    for (let attempt = 0; ; attempt++) {
      const name = attempt === 0 ? base : `${base.slice(0, 58)}-${attempt + 1}`;
      try {
        const { user } = await this.front.control.addUser(name, { oidcIssuer: issuer, oidcSubject: subject });
        this.logger.log(`user ${name} created at their first sign-in`);
        return user;
      } catch (error) {
        if (!(error instanceof ControlError) || attempt >= 20) throw error;
      }
    }
  }

  private async logout(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const id = this.cookies(request)[SESSION_COOKIE];
    const session = id ? await this.lookup(id) : null;
    if (!session) return send(response, 401, errorBody(401, 'not signed in'));
    if (request.headers['x-csrf-token'] !== session.csrf)
      return send(response, 403, errorBody(403, 'the request lacks a valid X-CSRF-Token header'));
    await this.front.control.removeSession(id!);
    this.front.audit.append({
      userId: session.user.id,
      userName: session.user.name,
      action: 'sign-out',
      method: 'POST',
      route: '/auth/logout',
      record: null,
      status: 200,
      client: request.socket.remoteAddress ?? null,
      store: session.user.store,
    });
    const clear = serializeCookie(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 0,
      secure: this.secure,
    });
    send(response, 200, { signedIn: false }, { 'set-cookie': clear });
  }
}
