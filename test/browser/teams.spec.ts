import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt } from '../support/web-build';
import { http } from '../e2e/support/http';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { addUser as addTeamUser, trove } from '../e2e/support/team';
import { SCREENSHOTS, axeViolations, launchBrowser, until } from './support/browser';

// The web app on a team deployment: each person enters their own token and sees their own store
// only: the list, a search, a deep link to someone else's snippet, Copilot's answer.

let server: TestServer;
let browser: Browser;

const addUser = (name: string): Promise<string> => addTeamUser(server, name);

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

  it('shows the spaces: a library to pick, a search across them with each result labelled, a copy into a space; readers only read', async () => {
    const bob = await addUser('bob');
    const carol = await addUser('carol');
    for (const [space, members] of [
      [
        'platform',
        [
          ['bob', 'editor'],
          ['carol', 'reader'],
        ],
      ],
      ['lab', [['bob', 'editor']]],
    ] as const) {
      expect((await trove(server, ['spaces', 'add', space])).code).toBe(0);
      for (const [user, role] of members)
        expect((await trove(server, ['spaces', 'member', space, user, '--role', role])).code).toBe(0);
    }
    const word = `wombat${Date.now().toString(36)}`;
    const inSpace = (token: string, space: string) => ({ authorization: `Bearer ${token}`, 'x-trove-space': space });
    const save = async (token: string, raw: string, space?: string) => {
      for (let i = 0; ; i++) {
        const res = await http(
          server.baseUrl,
          'POST',
          '/assets/create',
          { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw } } } } },
          space ? inSpace(token, space) : { authorization: `Bearer ${token}` },
        );
        // The front reads the directory about once a second.
        if (res.status === 200 || i > 40) return (res.json as { id: string }).id;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const own = await save(bob, `def ${word}_own_helper(x):\n    return x + 1\n`);
    await save(bob, `def ${word}_platform_deploy(service):\n    return service\n`, 'platform');
    const lab = await save(bob, `def ${word}_lab_trial(seed):\n    return seed\n`, 'lab');

    const page = await signedIn(bob);
    const rows = page.getByRole('listbox', { name: /snippets/ }).getByRole('option');
    await until(async () => (await rows.count()) === 1, "Bob's own snippet");
    const library = page.getByRole('combobox', { name: 'Library' });
    await library.selectOption('platform');
    await until(
      async () => (await rows.count()) === 1 && /platform_deploy/.test(await rows.first().innerText()),
      'the platform space listed',
    );
    // The space's change stream (the space rides on a WebSocket subprotocol): a save elsewhere shows.
    await new Promise((r) => setTimeout(r, 1800));
    await save(bob, `def ${word}_platform_rollback(service):\n    return service\n`, 'platform');
    await until(async () => (await rows.count()) === 2, 'a live update in the space');

    await library.selectOption('');
    await page.getByRole('checkbox', { name: 'Search all my spaces' }).check();
    await page.getByRole('searchbox').fill(word);
    await until(async () => (await rows.count()) === 4, 'results from every store');
    const labels = (await rows.allInnerTexts()).map((t) => (/in (platform|lab)/.exec(t) ?? ['', 'mine'])[1]).sort();
    expect(labels).toEqual(['lab', 'mine', 'platform', 'platform']);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/teams-search-everywhere.png` });

    // A result from another space opens there.
    await rows.filter({ hasText: 'lab_trial' }).click();
    await until(
      async () => (await page.getByTestId('code').innerText()).includes('lab_trial'),
      'the lab snippet opened',
    );
    expect(await library.inputValue()).toBe('lab');
    expect(page.url()).toContain(lab);

    // Copy one of Bob's own snippets into platform.
    await library.selectOption('');
    await page.goto(`${server.baseUrl}/#/drive/${own}`);
    await page.getByRole('combobox', { name: 'Space to copy to' }).selectOption('platform');
    await page.getByRole('button', { name: 'Copy to space' }).click();
    await page.getByText('Copied to platform').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/teams-copy-to-space.png` });
    const platform = await http(
      server.baseUrl,
      'POST',
      '/assets/search',
      { query: `${word}_own_helper` },
      inSpace(bob, 'platform'),
    );
    expect((platform.json as { results: { iterable: unknown[] } }).results.iterable).toHaveLength(1);
    await page.context().close();

    // Carol reads platform: no New, Edit or Delete there; no lab to pick.
    const hers = await signedIn(carol);
    const herLibrary = hers.getByRole('combobox', { name: 'Library' });
    await herLibrary.waitFor();
    expect(await herLibrary.locator('option').allInnerTexts()).toEqual(['My snippets', 'platform (read only)']);
    await herLibrary.selectOption('platform');
    const herRows = hers.getByRole('listbox', { name: /snippets/ }).getByRole('option');
    await until(async () => (await herRows.count()) === 3, 'the platform snippets for Carol');
    await herRows.first().click();
    await hers.getByTestId('code').waitFor();
    expect(await hers.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await hers.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await hers.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await hers.screenshot({ path: `${SCREENSHOTS}/teams-reader-space.png` });
    await hers.context().close();
  }, 120_000);
});
