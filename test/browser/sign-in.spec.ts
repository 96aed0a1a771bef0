import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { oidcEnv, startProvider, type TestProvider } from '../e2e/support/oidc';
import { trove } from '../e2e/support/team';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { ensureWebBuilt } from '../support/web-build';
import { SCREENSHOTS, launchBrowser, until, watch, type PageWatch } from './support/browser';

// Sign-in for people in the web app (docs/TEAMS.md, "Sign-in (OpenID Connect)"): a real OpenID
// provider (oidc-provider in a child process, its devInteractions login page), Trove with users,
// and a person who signs in with the button, works, and signs out.

let provider: TestProvider;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageWatch;

beforeAll(async () => {
  ensureWebBuilt();
  provider = await startProvider();
  server = await startTestServer(oidcEnv(provider, { TROVE_OIDC_CREATE_USERS: 'on' }));
  await provider.register(`${server.baseUrl}/auth/callback`);
  expect((await trove(server, ['users', 'add', 'root', '--admin'])).code).toBe(0);
  await until(async () => (await fetch(`${server.baseUrl}/assets`)).status === 401, 'the front to see the users');
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  problems = watch(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await provider?.close();
});

const sessionCookie = async () => (await context.cookies(server.baseUrl)).find((c) => c.name === 'trove_session');

describe('sign-in for people in the web app', () => {
  it('signs in with the identity provider, works with the CSRF token, and signs out', async () => {
    await page.goto(`${server.baseUrl}/`);
    const button = page.getByRole('link', { name: `Sign in with ${new URL(provider.issuer).host}` });
    await button.waitFor();
    // The API-key path is still offered beside it.
    await page.getByLabel('API key').waitFor();
    await button.click();

    // The provider's own pages: any login name, then consent.
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill('frida');
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: /continue/i }).click();

    await page.waitForURL((url) => url.href.startsWith(`${server.baseUrl}/`) && !url.pathname.startsWith('/auth/'));
    await page.getByTestId('signed-in-user').getByText('frida', { exact: true }).waitFor();
    await page.getByText('No snippets yet').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    const cookie = await sessionCookie();
    expect(cookie).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Lax', path: '/' }));
    // HttpOnly: the page's script cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('trove_session');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in-signed-in.png') });
    expect(existsSync(join(SCREENSHOTS, 'sign-in-signed-in.png'))).toBe(true);

    // Unsafe requests of the session need its CSRF token.
    const statuses = await page.evaluate(async () => {
      const session = (await (await fetch('/auth/session')).json()) as { csrf: string };
      const body = JSON.stringify({
        type: 'SEEDED_ASSET',
        asset: { format: { fragment: { string: { raw: 'echo from the browser' } } } },
      });
      const json = { 'content-type': 'application/json' };
      const without = await fetch('/assets/create', { method: 'POST', body, headers: json });
      const withToken = await fetch('/assets/create', {
        method: 'POST',
        body,
        headers: { ...json, 'x-csrf-token': session.csrf },
      });
      return [without.status, withToken.status];
    });
    expect(statuses).toEqual([403, 200]);
    // The snippet made with the token shows (the live stream of the session, over its cookie).
    await page.reload();
    await until(
      async () =>
        (await page
          .getByRole('listbox', { name: /snippets/ })
          .getByRole('option')
          .count()) === 1,
      'the new snippet',
    );

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('link', { name: /^Sign in with / }).waitFor();
    expect(await sessionCookie()).toBeUndefined();
    expect(await page.evaluate(async () => (await fetch('/assets')).status)).toBe(401);
    expect(await page.getByTestId('signed-in-user').count()).toBe(0);
    // The console has the refusals this test asks for (the streams' 401 before sign-in and after
    // sign-out, the 403 without the token) and the provider's page's own; the app threw nothing.
    expect(problems.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  it('has sign-in and sign-out in the audit log', async () => {
    let actions: string[] = [];
    await until(async () => {
      actions = (await trove(server, ['audit', '--json'])).stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { action: string }).action);
      return actions.includes('sign-out');
    }, 'the audit entries');
    expect(actions).toContain('sign-in');
    expect(actions).toContain('sign-out');
  });
});
