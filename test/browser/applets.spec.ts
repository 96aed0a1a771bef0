import type { Browser, Frame, Page } from 'playwright-core';
import { ensureWebBuilt } from '../support/web-build';
import { http } from '../e2e/support/http';
import { startTestServer, type TestServer } from '../e2e/support/server';
import { SCREENSHOTS, axeViolations, launchBrowser, until, watch, type PageWatch } from './support/browser';
import { startHostPage, type HostPage } from './support/host-page';

// The applets as an editor plugin shows them: a host page on another origin launches the three,
// embeds them, answers their requests and records their messages (test/browser/support/host-page.ts).

const APPLICATION = {
  id: 'b5f1c1d2-6e8a-4c5f-9d1e-0a1b2c3d4e5f',
  name: 'OBSIDIAN',
  version: '2.0.1',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};
const argb = (a: number, r: number, g: number, b: number) => (a << 24) | (r << 16) | (g << 8) | b;
const LIGHT = {
  darkMode: false,
  scaffoldBackgroundColor: argb(255, 250, 250, 250),
  onSurface: argb(255, 34, 34, 34),
  secondary: argb(255, 224, 224, 224),
};
const DARK = {
  darkMode: true,
  scaffoldBackgroundColor: argb(255, 30, 30, 30),
  onSurface: argb(255, 220, 220, 220),
  secondary: argb(255, 60, 60, 60),
};
const CODE =
  'def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except Exception:\n            if i == attempts - 1:\n                raise\n';

interface Recorded {
  port: number;
  origin: string;
  data: { type: string; data?: any; id?: string };
}

let server: TestServer;
let hostPage: HostPage;
let browser: Browser;
let page: Page;
let problems: PageWatch;
let ports: Record<string, number>;
let assetId: string;
let retriesChat: string;

const rows = (f: Frame) => f.getByRole('listbox', { name: /snippets/ }).getByRole('option');
/** Opens the first snippet of a narrow Drive, which may show a snippet restored from its state. */
async function openFirst(drive: Frame): Promise<void> {
  const back = drive.getByRole('button', { name: 'Back to the list' });
  await back.or(rows(drive).first()).first().waitFor();
  if (await back.isVisible()) await back.click();
  await rows(drive).first().click();
}
const messages = (): Promise<Recorded[]> => page.evaluate(() => (window as any).host.messages);
const loads = async (type: string) =>
  (await messages()).filter((m) => m.port === ports[type] && m.data.type === 'loaded').length;
/** Reloads an applet's frame as the plugin does (a new URL: its theme, capabilities, state) and waits for its `loaded`. */
async function reload(type: string, extra?: { capabilities?: number; state?: string }): Promise<void> {
  const before = await loads(type);
  await page.evaluate(([t, e]) => (window as any).host.load(t, e), [type, extra] as const);
  await until(async () => (await loads(type)) > before, `${type} reloaded`);
}
const frame = (type: string): Frame =>
  page.frames().find((f) => f.url().startsWith(`http://localhost:${ports[type]}/`))!;

beforeAll(async () => {
  ensureWebBuilt();
  server = await startTestServer();
  const created = await http(server.baseUrl, 'POST', '/assets/create', {
    type: 'SEEDED_ASSET',
    asset: { format: { fragment: { string: { raw: CODE } } } },
  });
  assetId = created.json.id;
  retriesChat = (
    await http(server.baseUrl, 'POST', '/conversations/create', {
      type: 'COPILOT',
      name: 'Retries',
      messages: [
        { role: 'USER', fragment: { string: { raw: 'How do I retry?' } } },
        { role: 'ASSISTANT', fragment: { string: { raw: 'Wrap the call:\n\n```python\nretry(fetch)\n```\n' } } },
      ],
    })
  ).json.id;
  hostPage = await startHostPage();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1500, height: 760 } });
  page.setDefaultTimeout(8000);
  problems = watch(page);
  await page.goto(hostPage.url(server.baseUrl, APPLICATION, LIGHT));
  ports = await page.evaluate(() => (window as any).host.launched);
  await until(
    async () => (await messages()).filter((m) => m.data.type === 'loaded').length === 3,
    'three loaded messages',
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await hostPage?.close();
  await server?.close();
});

describe('the applets in a plugin host', () => {
  it('launches each applet on a port of its own; the first message from each is `loaded`', async () => {
    expect(new Set(Object.values(ports)).size).toBe(3);
    const all = await messages();
    for (const port of Object.values(ports)) {
      const first = all.find((m) => m.port === port)!;
      expect(first.data).toEqual({ destination: 'extension', type: 'loaded' });
      expect(first.origin).toBe(`http://localhost:${port}`);
    }
  });

  it("Drive: Insert posts insertAtCursor with the snippet's code; Copy posts copyToClipboard; Ask Copilot focuses a new chat about it", async () => {
    const drive = frame('SAVED_MATERIALS');
    await openFirst(drive);
    await drive.getByRole('heading', { level: 2 }).waitFor();
    const before = (await messages()).length;
    await drive.getByRole('button', { name: 'Insert', exact: true }).click();
    await drive.getByRole('button', { name: 'Copy', exact: true }).click();
    await drive.getByRole('button', { name: 'Ask Copilot about this' }).click();
    const sent = await until(async () => {
      const after = (await messages())
        .slice(before)
        .filter((m) => m.port === ports.SAVED_MATERIALS && m.data.type !== 'setStateReq');
      return after.length >= 3 && after;
    }, 'insert, copy and focus messages');
    expect(sent.map((m) => m.data.type)).toEqual(['insertAtCursor', 'copyToClipboard', 'focusCopilotConversation']);
    expect(sent[0].data.data).toBe(CODE);
    expect(sent[1].data.data).toBe(CODE);
    const conversation = sent[2].data.data as { id: string };
    expect(conversation.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await http(server.baseUrl, 'GET', `/conversation/${conversation.id}`)).json.assets.iterable).toEqual([
      expect.objectContaining({ id: assetId }),
    ]);

    // The plugin forwards it to Copilot, which opens that chat.
    await page.evaluate(
      (c) => (window as any).host.send('COPILOT', { type: 'focusCopilotConversation', data: c }),
      conversation,
    );
    await frame('COPILOT').getByLabel('Snippets this chat is about').waitFor();
  });

  it('offers Insert only when the capability bit is set', async () => {
    await reload('SAVED_MATERIALS', { capabilities: 16384 });
    const drive = frame('SAVED_MATERIALS');
    await openFirst(drive);
    await drive.getByRole('button', { name: 'Copy', exact: true }).waitFor();
    expect(await drive.getByRole('button', { name: 'Insert', exact: true }).count()).toBe(0);
    expect(await drive.getByRole('button', { name: 'Ask Copilot about this' }).count()).toBe(0);
    await reload('SAVED_MATERIALS');
  });

  it('takes the theme from the `theme` parameter and from setTheme, light and dark', async () => {
    const look = (f: Frame) =>
      f.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor]);
    for (const type of Object.keys(ports)) expect(await look(frame(type))).toEqual(['light', 'rgb(250, 250, 250)']);
    await page.evaluate((theme) => (window as any).host.setTheme(theme), DARK);
    for (const type of Object.keys(ports))
      await until(async () => (await look(frame(type)))[0] === 'dark', `${type} dark`);
    for (const type of Object.keys(ports)) expect(await look(frame(type))).toEqual(['dark', 'rgb(30, 30, 30)']);
    await page.evaluate((theme) => (window as any).host.setTheme(theme), LIGHT);
    for (const type of Object.keys(ports))
      await until(async () => (await look(frame(type)))[0] === 'light', `${type} light`);
  });

  it('keeps its state across a reload: setStateReq, then the `state` parameter (Drive) or getStateReq (Copilot)', async () => {
    const drive = frame('SAVED_MATERIALS');
    await openFirst(drive);
    const state = await until(async () => {
      const s = await page.evaluate((port) => (window as any).host.states[port], ports.SAVED_MATERIALS);
      return typeof s === 'string' && s.includes(assetId) && s;
    }, 'a setStateReq with the open snippet');
    expect(JSON.parse(state)).toMatchObject({ view: 'drive', snippet: assetId });
    await reload('SAVED_MATERIALS', { state });
    await frame('SAVED_MATERIALS').getByRole('button', { name: 'Copy', exact: true }).waitFor();

    const copilot = frame('COPILOT');
    await copilot.getByRole('button', { name: 'Back to the chats' }).click();
    await copilot.getByRole('button', { name: /^Retries/ }).click();
    await until(
      async () =>
        String(await page.evaluate((port) => (window as any).host.states[port], ports.COPILOT)).includes(retriesChat),
      'copilot state',
    );
    await reload('COPILOT');
    const asked = await until(
      async () => (await messages()).filter((m) => m.port === ports.COPILOT && m.data.type === 'getStateReq').pop(),
      'getStateReq',
    );
    expect(asked.data.id).toEqual(expect.any(String));
    await frame('COPILOT').getByRole('heading', { name: 'Retries' }).waitFor();
  });

  it('Copilot: a code block of an answer is copied through the host; a question is answered over /qgpt/stream with its snippets', async () => {
    const copilot = frame('COPILOT');
    await copilot.getByRole('heading', { name: 'Retries' }).waitFor();
    const before = (await messages()).length;
    await copilot.getByRole('button', { name: 'Copy', exact: true }).first().click();
    const copied = await until(
      async () => (await messages()).slice(before).find((m) => m.data.type === 'copyToClipboard'),
      'copyToClipboard',
    );
    expect(copied.data.data).toBe('retry(fetch)\n'.trimEnd());

    await copilot.getByRole('button', { name: 'Back to the chats' }).click();
    await copilot.getByRole('button', { name: 'New chat' }).click();
    await copilot.getByLabel('Message').fill('how do I retry a function call?');
    await copilot.getByRole('button', { name: 'Send' }).click();
    await copilot.getByLabel('Snippets used').getByText(/retry/i).waitFor({ timeout: 15_000 });
    await until(
      async () => /retry/.test(await copilot.locator('.message.assistant').last().innerText()),
      'the streamed answer',
    );
  });

  it('Settings answers in its pane', async () => {
    const settings = frame('FUTURE_APPLET_MODULE_PLACEHOLDER_A');
    await settings.getByRole('heading', { name: 'Connect AI agents (MCP)' }).waitFor();
    expect(
      await settings.getByText(`:${server.baseUrl.split(':').pop()}/model_context_protocol/2025-03-26/mcp`).count(),
    ).toBeGreaterThan(0);
  });

  it('axe finds no serious or critical violation in any applet; screenshots, light and dark', async () => {
    for (const [theme, look] of [
      ['light', LIGHT],
      ['dark', DARK],
    ] as const) {
      await page.evaluate((t) => (window as any).host.setTheme(t), look);
      for (const [type, name] of [
        ['SAVED_MATERIALS', 'drive'],
        ['COPILOT', 'copilot'],
        ['FUTURE_APPLET_MODULE_PLACEHOLDER_A', 'settings'],
      ]) {
        const f = frame(type);
        await until(
          async () => (await f.evaluate(() => document.documentElement.dataset.theme)) === theme,
          `${type} ${theme}`,
        );
        expect(await axeViolations(f)).toEqual([]);
        await (await f.frameElement()).screenshot({ path: `${SCREENSHOTS}/applet-${name}-${theme}.png` });
      }
    }
    expect(problems.errors).toEqual([]);
    expect(problems.dialogs).toEqual([]);
  });
});
