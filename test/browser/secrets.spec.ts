import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureWebBuilt } from '../support/web-build';
import { http } from '../e2e/support/http';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { SCREENSHOTS, axeViolations, launchBrowser, until, watch, type PageWatch } from './support/browser';

// Snippets that hold a secret: Drive marks them, the snippet view says so, and Copy asks first.

const SECRET = 'AKIAQ3MZ7V2XK9PLWT4B';
const WITH_KEY = `import boto3\n\nAWS_ACCESS_KEY_ID = "${SECRET}"\ns3 = boto3.client("s3")\n`;
const CLEAN = 'def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n';

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: PageWatch;
const ids: Record<string, string> = {};

const create = async (raw: string) =>
  (
    await http(server.baseUrl, 'POST', '/assets/create', {
      type: 'SEEDED_ASSET',
      asset: { format: { fragment: { string: { raw } } } },
    })
  ).json;
const rows = () => page.getByRole('listbox', { name: /snippets/ }).getByRole('option');
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

beforeAll(async () => {
  ensureWebBuilt();
  server = await startTestServer();
  ids.clean = (await create(CLEAN)).id;
  ids.key = (await create(WITH_KEY)).id;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  page = await context.newPage();
  page.setDefaultTimeout(8000);
  problems = watch(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('snippets with secrets in the browser app', () => {
  it('Drive marks the snippet that holds a secret, and only it', async () => {
    await page.goto(`${server.baseUrl}/#/drive`);
    await until(async () => (await rows().count()) === 2, 'two rows');
    const marked = rows().filter({ has: page.getByLabel('Holds a secret') });
    expect(await marked.count()).toBe(1);
    expect(await marked.first().getAttribute('id')).toBe(`row-${ids.key}`);
    expect(await page.locator(`#row-${ids.key} .chip.secret`).getAttribute('title')).toContain('AWS access key id');
    // No tag made from the text quotes a part of the secret.
    const tags = (await http(server.baseUrl, 'GET', `/asset/${ids.key}`)).json.tags.iterable.map(
      (t: { text: string }) => t.text.toLowerCase(),
    );
    expect(tags.some((t: string) => SECRET.toLowerCase().includes(t) && t.length > 2)).toBe(false);
    await page.screenshot({ path: `${SCREENSHOTS}/secrets-drive.png` });
  });

  it('the snippet view warns, and Copy asks first: Cancel copies nothing, the confirm copies', async () => {
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.goto(`${server.baseUrl}/#/drive/${ids.key}`);
    await page.getByRole('note').filter({ hasText: 'AWS access key id' }).waitFor();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    const confirm = page.getByRole('group', { name: 'Confirm copy' });
    await confirm.waitFor();
    await page.mouse.move(0, 0); // no button hovered: axe sees the colours at rest
    await page.screenshot({ path: `${SCREENSHOTS}/secrets-copy-confirm.png` });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await clipboard()).toBe('before');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copy with the secret' }).click();
    await until(async () => (await clipboard()) === WITH_KEY, 'the code on the clipboard');
  });

  it('a snippet without a secret copies at once, with no warning', async () => {
    await page.goto(`${server.baseUrl}/#/drive/${ids.clean}`);
    await page.getByRole('heading', { level: 2 }).waitFor();
    expect(await page.locator('.secret-warning').count()).toBe(0);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await until(async () => (await clipboard()) === CLEAN, 'the code on the clipboard');
    expect(await page.getByRole('group', { name: 'Confirm copy' }).count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });
});
