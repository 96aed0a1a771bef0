import { expectError, rawResponse } from './support/http';
import { Jar, oidcEnv, signInByHttp, startProvider, type TestProvider } from './support/oidc';
import { trove } from './support/team';
import { startTestServer, type TestServer } from './support/server';

// Sign-in for people (docs/TEAMS.md, "Sign-in (OpenID Connect)") over HTTP, against a real
// OpenID provider (oidc-provider in a child process): the code flow with PKCE, the session
// cookie and its CSRF token, sign-out, and the refusals.

let provider: TestProvider;
let open: TestServer; // TROVE_OIDC_CREATE_USERS=on
let closed: TestServer; // off

const raw = async (response: Response) => rawResponse(response.status, response.headers, await response.text());

beforeAll(async () => {
  provider = await startProvider();
  open = await startTestServer(oidcEnv(provider, { TROVE_OIDC_CREATE_USERS: 'on' }));
  closed = await startTestServer(oidcEnv(provider, { TROVE_OIDC_CREATE_USERS: 'off' }));
  await provider.register(`${open.baseUrl}/auth/callback ${closed.baseUrl}/auth/callback`);
  for (const server of [open, closed]) {
    expect((await trove(server, ['users', 'add', 'root', '--admin'])).code).toBe(0);
    // The front reads the directory within a second: from then on it asks every request who it is.
    for (let i = 0; i < 50 && (await fetch(`${server.baseUrl}/assets`)).status !== 401; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(async () => {
  await open?.close();
  await closed?.close();
  await provider?.close();
});

describe('sign-in with OpenID Connect', () => {
  it('signs a new identity in as a new user, with an HttpOnly session cookie whose unsafe requests need X-CSRF-Token; sign-out ends it', async () => {
    const jar = new Jar();
    const callback = await signInByHttp(open.baseUrl, jar, 'dana');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/');
    const set = callback.headers.getSetCookie().find((c) => c.startsWith('trove_session='))!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toMatch(/Secure/i); // the callback URL is http://

    const session = await jar.fetch(`${open.baseUrl}/auth/session`);
    const state = await session.json();
    expect(state).toEqual({
      signedIn: true,
      user: { name: 'dana', admin: false },
      csrf: expect.any(String),
      signIn: true,
      issuer: new URL(provider.issuer).host,
    });
    expect((await trove(open, ['users', 'list', '--json'])).stdout).toContain('"dana"');

    expect((await jar.fetch(`${open.baseUrl}/assets`)).status).toBe(200);
    const body = JSON.stringify({
      type: 'SEEDED_ASSET',
      asset: { format: { fragment: { string: { raw: 'echo signed in' } } } },
    });
    const json = { 'content-type': 'application/json' };
    expectError(
      await raw(await jar.fetch(`${open.baseUrl}/assets/create`, { method: 'POST', body, headers: json })),
      403,
      /CSRF/,
    );
    expect(
      (
        await jar.fetch(`${open.baseUrl}/assets/create`, {
          method: 'POST',
          body,
          headers: { ...json, 'x-csrf-token': state.csrf },
        })
      ).status,
    ).toBe(200);

    expectError(await raw(await jar.fetch(`${open.baseUrl}/auth/logout`, { method: 'POST' })), 403, /CSRF/);
    expectError(
      await raw(
        await jar.fetch(`${open.baseUrl}/auth/logout`, { method: 'POST', headers: { 'x-csrf-token': 'wrong' } }),
      ),
      403,
      /CSRF/,
    );
    const kept = jar.header();
    const out = await jar.fetch(`${open.baseUrl}/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': state.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('trove_session='))).toMatch(/Max-Age=0/i);
    expect(jar.cookies.has('trove_session')).toBe(false);
    // The old cookie is worth nothing now, not only forgotten by the browser.
    expect((await fetch(`${open.baseUrl}/assets`, { headers: { cookie: kept } })).status).toBe(401);
    expect(await (await fetch(`${open.baseUrl}/auth/session`, { headers: { cookie: kept } })).json()).toEqual(
      expect.objectContaining({ signedIn: false, signIn: true }),
    );

    // The same identity signs in again as the same user.
    const again = new Jar();
    expect((await signInByHttp(open.baseUrl, again, 'dana')).status).toBe(302);
    expect((await (await again.fetch(`${open.baseUrl}/auth/session`)).json()).user.name).toBe('dana');
  });

  it('answers a callback whose state is not the one sent, or with no sign-in under way, with a 4xx JSON error', async () => {
    const jar = new Jar();
    const login = await jar.fetch(`${open.baseUrl}/auth/login`);
    expect(login.status).toBe(302);
    const target = new URL(login.headers.get('location')!);
    expect(target.origin).toBe(provider.issuer);
    expect(target.searchParams.get('code_challenge_method')).toBe('S256');
    expect(target.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(target.searchParams.get('redirect_uri')).toBe(`${open.baseUrl}/auth/callback`);
    expectError(await raw(await jar.fetch(`${open.baseUrl}/auth/callback?code=abc&state=not-the-state`)), 400, /state/);
    // The sign-in under way is used up by a failed callback, and none at all is refused too.
    expectError(
      await raw(await jar.fetch(`${open.baseUrl}/auth/callback?code=abc&state=${target.searchParams.get('state')}`)),
      400,
    );
    expectError(await raw(await fetch(`${open.baseUrl}/auth/callback?code=abc&state=x`)), 400);
    expect(jar.cookies.has('trove_session')).toBe(false);
  });

  it('refuses an identity no user has when TROVE_OIDC_CREATE_USERS is off (403), and creates no user', async () => {
    const jar = new Jar();
    const callback = await signInByHttp(closed.baseUrl, jar, 'erin');
    expectError(await raw(callback), 403, /not a user/);
    expect(jar.cookies.has('trove_session')).toBe(false);
    expect((await trove(closed, ['users', 'list', '--json'])).stdout).not.toContain('erin');
  });

  it('records sign-in, sign-out and failed sign-ins in the audit log', async () => {
    const actions = async (server: TestServer) =>
      (await trove(server, ['audit', '--json'])).stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { action: string; user?: string; userName?: string });
    let entries: Awaited<ReturnType<typeof actions>> = [];
    // The log is written in batches, and each sign-in's entry on its own timing: wait for all of them.
    const count = (action: string) => entries.filter((e) => e.action === action).length;
    for (let i = 0; i < 50 && (count('sign-out') < 1 || count('sign-in') < 2 || count('auth.failed') < 3); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      entries = await actions(open);
    }
    expect(entries.filter((e) => e.action === 'sign-in').length).toBe(2);
    expect(entries.filter((e) => e.action === 'sign-out').length).toBe(1);
    expect(entries.filter((e) => e.action === 'auth.failed').length).toBeGreaterThanOrEqual(3);
    expect((await actions(closed)).some((e) => e.action === 'auth.failed')).toBe(true);
  });
});
