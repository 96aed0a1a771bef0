import type { Browser, Page } from 'playwright-core';
import { run } from '../../src/cli/main';
import { ensureWebBuilt } from '../support/web-build';
import { http } from '../e2e/support/http';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { SCREENSHOTS, launchBrowser, until } from './support/browser';

// The web app on a team deployment: each person enters their own token and sees their own store
// only: the list, a search, a deep link to someone else's snippet, Copilot's answer.

let server: TestServer;
let browser: Browser;

async function addUser(name: string): Promise<string> {
  let out = '';
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  try {
    const store = server.config.databaseUrl ? ['--database-url', server.config.databaseUrl] : ['--data-dir', server.config.dataDir];
    expect(await run(['node', 'trove', 'users', 'add', name, ...store])).toBe(0);
  } finally {
    write.mockRestore();
  }
  return out.trim().split('\n').pop()!;
}

const create = async (token: string, raw: string) =>
  (
    await http(
      server.baseUrl,
      'POST',
      '/assets/create',
      { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw } } } } },
      { authorization: `Bearer ${token}` },
    )
  ).json as { id: string };

async function signedIn(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${server.baseUrl}/`);
  await page.getByRole('dialog', { name: 'API key required' }).waitFor();
  await page.getByRole('textbox', { name: 'API key' }).fill(token);
  await page.getByRole('button', { name: 'Continue' }).click();
  return page;
}

beforeAll(async () => {
  ensureWebBuilt();
  server = await startTestServer();
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the web app on a team deployment', () => {
  it("shows each user their own snippets only; a deep link to another's is not found", async () => {
    await addUser('owner');
    const dana = await addUser('dana');
    const eli = await addUser('eli');
    const danas = await create(dana, 'def dana_quarterly_report(rows):\n    return sum(r.total for r in rows)\n');
    await create(eli, 'function eliDeployScript() {\n  return "deploy";\n}\n');

    const page = await signedIn(eli);
    const rows = page.getByRole('listbox', { name: /snippets/ }).getByRole('option');
    await until(async () => (await rows.count()) === 1, "Eli's one snippet listed");
    expect(await rows.first().innerText()).toMatch(/eliDeployScript/);
    await page.screenshot({ path: `${SCREENSHOTS}/teams-drive-eli.png` });

    await page.getByRole('searchbox').fill('dana_quarterly_report');
    await until(async () => (await rows.count()) === 0, 'no result from Dana’s store');

    await page.goto(`${server.baseUrl}/#/drive/${danas.id}`);
    await page.getByText(`asset ${danas.id} not found`).waitFor();
    expect(await page.getByTestId('code').count()).toBe(0);
    expect(await page.content()).not.toContain('r.total for r in rows');

    await page.goto(`${server.baseUrl}/#/copilot`);
    const box = page.getByRole('textbox', { name: /message|ask/i });
    await box.fill('What does dana_quarterly_report return?');
    await box.press('Enter');
    await page.waitForTimeout(3000);
    expect(await page.content()).not.toContain('r.total for r in rows');
    await page.screenshot({ path: `${SCREENSHOTS}/teams-copilot-eli.png` });
    await page.context().close();

    const hers = await signedIn(dana);
    const herRows = hers.getByRole('listbox', { name: /snippets/ }).getByRole('option');
    await until(async () => (await herRows.count()) === 1, "Dana's one snippet listed");
    expect(await herRows.first().innerText()).toMatch(/dana_quarterly_report/);
    await hers.context().close();
  }, 90_000);
});
