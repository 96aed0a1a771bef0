import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt } from '../support/web-build';
import { http } from '../e2e/support/http';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { launchBrowser, until, watch, type PageWatch } from './support/browser';

// Nothing from the store ever executes: hostile names, descriptions, tags, websites, content,
// chat names and answers (script tags, event handlers, javascript: links) are shown as text or
// through the sanitizer, and the page's CSP would refuse an inline script anyway.

const mark = (where: string) => `window.__pwned=(window.__pwned||[]).concat('${where}')`;
const HOSTILE = (where: string) =>
  `<img src=x onerror="${mark(`${where}-img`)}"><script>${mark(`${where}-script`)}</script><svg onload="${mark(`${where}-svg`)}"></svg>` +
  `<a href="javascript:${mark(`${where}-a`)}">link</a>`;
const ANSWER = [
  `[click me](javascript:${mark('md-link')})`,
  `<a href="javascript:${mark('md-a')}">raw link</a>`,
  `<img src=x onerror="${mark('md-img')}">`,
  `<script>${mark('md-script')}</script>`,
  `<iframe src="javascript:${mark('md-iframe')}"></iframe>`,
  `<details open ontoggle="${mark('md-toggle')}">details</details>`,
  `<form action="javascript:${mark('md-form')}"><button>go</button></form>`,
  `<javascript:${mark('md-autolink')}>`,
  '```html',
  `<script>${mark('md-code')}</script>`,
  '```',
  '[a fine link](https://example.com/docs)',
].join('\n\n');

let server: TestServer;
let browser: Browser;
let page: Page;
let problems: PageWatch;
let asset: string;
let chat: string;

/** What a page must never have: a mark set by hostile code, a javascript: link, an event-handler attribute, markup from answers that can run or load. */
async function expectInert(target: Page): Promise<void> {
  const found = await target.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: string[] }).__pwned ?? [],
    javascriptLinks: Array.from(document.querySelectorAll('a[href], iframe[src], form[action]'))
      .map((e) => e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('action') ?? '')
      .filter((u) => /^\s*javascript:/i.test(u)),
    handlers: Array.from(document.querySelectorAll('*')).flatMap((e) =>
      Array.from(e.attributes)
        .filter((a) => /^on/i.test(a.name))
        .map((a) => `${e.tagName}[${a.name}]`),
    ),
    active: Array.from(
      document.querySelectorAll(
        '#root script, #root iframe, #root object, #root embed, .markdown img, .markdown svg, .markdown form',
      ),
    ).map((e) => e.tagName),
  }));
  expect(found).toEqual({ pwned: [], javascriptLinks: [], handlers: [], active: [] });
}

beforeAll(async () => {
  ensureWebBuilt();
  server = await startTestServer();
  const created = await http(server.baseUrl, 'POST', '/assets/create', {
    type: 'SEEDED_ASSET',
    asset: {
      metadata: {
        name: HOSTILE('name'),
        annotations: [{ type: 'DESCRIPTION', text: HOSTILE('description') }],
        tags: [{ text: `<img src=x onerror="${mark('tag')}">` }],
        websites: [{ url: 'https://example.com/hostile', name: HOSTILE('website') }],
      },
      format: { fragment: { string: { raw: HOSTILE('content') } } },
    },
  });
  expect(created.status).toBe(200);
  asset = created.json.id;
  // Trove refuses javascript: links (a 400); a store written otherwise (an older version, SQL) may still hold one.
  expect(
    (
      await http(server.baseUrl, 'POST', '/assets/create', {
        type: 'SEEDED_ASSET',
        asset: {
          metadata: { websites: [{ url: 'javascript:alert(1)' }] },
          format: { fragment: { string: { raw: 'x' } } },
        },
      })
    ).status,
  ).toBe(400);
  await server.sql(
    `UPDATE websites SET url = $1 WHERE url = $2`.replace(/\$(\d)/g, server.config.dialect === 'sqlite' ? '?' : '$$$1'),
    [`javascript:${mark('website-href')}`, 'https://example.com/hostile'],
  );
  chat = (
    await http(server.baseUrl, 'POST', '/conversations/create', {
      type: 'COPILOT',
      name: HOSTILE('chat-name'),
      messages: [
        { role: 'USER', fragment: { string: { raw: HOSTILE('question') } } },
        { role: 'ASSISTANT', fragment: { string: { raw: ANSWER } } },
      ],
    })
  ).json.id;
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(8000);
  problems = watch(page);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('hostile content', () => {
  it('a hostile snippet shows its name, description, tags, websites and content as text in the list, its view and search', async () => {
    await page.goto(`${server.baseUrl}/#/drive`);
    await page
      .getByRole('listbox', { name: /snippets/ })
      .getByRole('option')
      .first()
      .waitFor();
    await expectInert(page);
    await page.goto(`${server.baseUrl}/#/drive/${asset}`);
    await page.getByRole('heading', { level: 2, name: /<img src=x onerror=/ }).waitFor();
    await page.locator('.cm-editor').waitFor();
    await page
      .getByText(`<script>${mark('description-script')}</script>`, { exact: false })
      .first()
      .waitFor();
    await page
      .getByRole('region', { name: 'Websites' })
      .getByText(/<a href="javascript:/)
      .waitFor();
    expect(await page.getByRole('region', { name: 'Websites' }).getByRole('link').count()).toBe(0); // the javascript: URL is text, not a link
    await page.getByRole('searchbox', { name: 'Search' }).fill('onerror');
    await until(
      async () =>
        (await page
          .getByRole('listbox', { name: /snippets/ })
          .getByRole('option')
          .count()) >= 1,
      'search results',
    );
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('.cm-editor').waitFor();
    await expectInert(page);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a hostile chat and answer render as text and sanitized Markdown; code blocks stay text', async () => {
    await page.goto(`${server.baseUrl}/#/copilot/${chat}`);
    await page.getByRole('heading', { level: 2, name: /<img src=x onerror=/ }).waitFor();
    await page.getByRole('link', { name: 'a fine link' }).waitFor();
    expect(await page.getByRole('link', { name: 'a fine link' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect((await page.locator('.code-block code').first().innerText()).trim()).toBe(
      `<script>${mark('md-code')}</script>`,
    );
    // Raw HTML in an answer is its text.
    await page.getByText(`<img src=x onerror="${mark('md-img')}">`).waitFor();
    await page
      .getByText(`<script>${mark('question-script')}</script>`, { exact: false })
      .first()
      .waitFor();
    await page.getByText('click me').click(); // a link without its javascript: href does nothing
    await expectInert(page);
  });

  it('hostile theme, state and application parameters in an applet URL change nothing but what they may', async () => {
    const { port } = (await http(server.baseUrl, 'POST', '/os/applet/launch', { type: 'SAVED_MATERIALS' })).json;
    const url = new URL(`http://localhost:${port}/`);
    url.searchParams.set(
      'theme',
      JSON.stringify({
        darkMode: 'yes',
        scaffoldBackgroundColor: `red;}</style><script>${mark('theme')}</script>`,
        onSurface: 1e30,
      }),
    );
    url.searchParams.set('application', JSON.stringify({ id: '<script>', name: HOSTILE('application') }));
    url.searchParams.set(
      'state',
      JSON.stringify({ view: 'drive', query: HOSTILE('state'), snippet: 'javascript:alert(1)' }),
    );
    url.searchParams.set('capabilities', 'javascript:alert(1)');
    await page.goto(url.href);
    await page.getByRole('searchbox', { name: 'Search' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(HOSTILE('state'));
    expect(await page.evaluate(() => document.documentElement.style.cssText)).toBe('');
    await expectInert(page);
    expect(problems.errors).toEqual([]);
    expect(problems.dialogs).toEqual([]);
  });
});
