import { startHostPage } from './support/host-page';
import { launchBrowser } from './support/browser';
import { startTestServer } from '../e2e/support/server';
import { http } from '../e2e/support/http';
(async () => {
  const server = await startTestServer();
  const created = await http(server.baseUrl, 'POST', '/assets/create', {
    type: 'SEEDED_ASSET',
    asset: { format: { fragment: { string: { raw: 'print(1)' } } } },
  });
  const host = await startHostPage();
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1500, height: 760 } });
  page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
  page.on('pageerror', (e) => console.log('pageerror', e.message, e.stack?.slice(0, 1500)));
  await page.goto(host.url(server.baseUrl, { id: 'b5f1c1d2-6e8a-4c5f-9d1e-0a1b2c3d4e5f', name: 'OBSIDIAN' }, { darkMode: false }));
  const ports = await page.evaluate(() => (window as any).host.launched);
  await page.waitForTimeout(1500);
  const conv = (await http(server.baseUrl, 'POST', `/conversations/create/from_asset/${created.json.id}`)).json.conversation;
  await page.evaluate((c) => (window as any).host.send('COPILOT', { type: 'focusCopilotConversation', data: c }), conv);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/work/wt-i43-web/test-results/dbg-host3.png' });
  await browser.close();
  await host.close();
  await server.close();
})();
