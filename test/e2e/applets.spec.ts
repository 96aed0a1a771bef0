import WebSocket from 'ws';
import { OSApi } from '@pieces.app/pieces-os-client';
import { ensureWebBuilt } from '../support/web-build';
import { expectError, http, nodeRequest } from './support/http';
import { useTestServer } from './support/server';
import { StreamClient, refusedUpgrade } from './support/ws';

// The applets, as the editor plugins use them (docs/APP.md, "How the plugins reach it"): launch answers
// a port of its own per applet (the plugins route messages by the origin's port), the page on
// that port is the web app in that applet's role, and the port keeps every guard of Trove's own.

const TYPES = ['COPILOT', 'SAVED_MATERIALS', 'FUTURE_APPLET_MODULE_PLACEHOLDER_A'] as const;
const VIEW = { COPILOT: 'copilot', SAVED_MATERIALS: 'drive', FUTURE_APPLET_MODULE_PLACEHOLDER_A: 'settings' } as const;
const KEY = 'applet-test-key-0123456789';
/** Obsidian 2.0.1 sends its Application as `parent`. */
const PARENT = {
  id: 'b5f1c1d2-6e8a-4c5f-9d1e-0a1b2c3d4e5f',
  name: 'OBSIDIAN',
  version: '2.0.1',
  platform: 'LINUX',
  onboarded: true,
  privacy: 'OPEN',
};

const viewOf = (html: string) => /<meta name="trove-view" content="([^"]*)"/.exec(html)?.[1];
const local = (port: number) => `http://127.0.0.1:${port}`;

beforeAll(() => ensureWebBuilt());

describe('applets', () => {
  const server = useTestServer();
  const launch = async (type: string) =>
    (await http(server.baseUrl, 'POST', '/os/applet/launch', { type, parent: PARENT })).json;

  it('launch answers a distinct port per applet, the same one while it runs, with the page in that role', async () => {
    const os = new OSApi(server.sdk);
    const ports: number[] = [];
    for (const type of TYPES) {
      const applet = await os.osAppletLaunch({ inactiveOSServerApplet: { type, parent: PARENT } as never });
      expect(applet).toEqual({
        type,
        port: expect.any(Number),
        handler: expect.objectContaining({ type: 'trove-web' }),
      });
      ports.push(applet.port);
      expect((await launch(type)).port).toBe(applet.port); // idempotent
      const page = await http(
        `http://localhost:${applet.port}`,
        'GET',
        `/?theme=%7B%22darkMode%22%3Atrue%7D&capabilities=290171`,
      );
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(viewOf(page.text)).toBe(VIEW[type]);
    }
    expect(new Set([...ports, Number(new URL(server.baseUrl).port)]).size).toBe(4);
    expect(viewOf((await http(server.baseUrl, 'GET', '/')).text)).toBe('app');
  });

  it('restart reopens the applet on the port it had (never on another one a body names); terminate closes it and its connections', async () => {
    const { port } = await launch('SAVED_MATERIALS');
    const socket = await StreamClient.open(local(port), '/assets/stream/identifiers');
    const restarted = await http(server.baseUrl, 'POST', '/os/applet/restart', {
      type: 'SAVED_MATERIALS',
      parent: PARENT,
      port,
    });
    expect(restarted.status).toBe(200);
    expect(restarted.json).toMatchObject({ type: 'SAVED_MATERIALS', port });
    expect((await socket.closed).code).toBeGreaterThan(0);
    expect((await http(local(port), 'GET', '/.well-known/health')).status).toBe(200);

    const terminated = await http(server.baseUrl, 'POST', '/os/applet/terminate', { type: 'SAVED_MATERIALS', port });
    expect(terminated.status).toBe(204);
    await expect(fetch(`${local(port)}/.well-known/health`)).rejects.toThrow();
    expect((await http(server.baseUrl, 'POST', '/os/applet/terminate', { type: 'SAVED_MATERIALS' })).status).toBe(204); // not running: nothing to do
    const again = await launch('SAVED_MATERIALS');
    expect((await http(local(again.port), 'GET', '/.well-known/health')).status).toBe(200);
    // A port Trove did not give this applet is never bound: the applet keeps its own.
    const other = (await launch('COPILOT')).port;
    const asked = await http(server.baseUrl, 'POST', '/os/applet/restart', { type: 'SAVED_MATERIALS', port: other });
    expect(asked.json.port).not.toBe(other);
    expect(asked.json.port).toBe(again.port);
    expect(viewOf((await http(`http://localhost:${other}`, 'GET', '/')).text)).toBe('copilot');
  });

  it('answers 4xx for applets Trove does not serve and for bad bodies, and opens nothing', async () => {
    expectError(
      await http(server.baseUrl, 'POST', '/os/applet/launch', { type: 'GLOBAL_SEARCH' }),
      404,
      /no GLOBAL_SEARCH applet/,
    );
    expectError(await http(server.baseUrl, 'POST', '/os/applet/launch', { type: 'NOPE' }), 400, /type/);
    expectError(await http(server.baseUrl, 'POST', '/os/applet/launch', {}), 400, /type/);
    expectError(await http(server.baseUrl, 'POST', '/os/applet/restart', { type: 'COPILOT', port: 'x' }), 400, /port/);
    expectError(
      await http(server.baseUrl, 'POST', '/os/applet/restart', { type: 'COPILOT', port: 70000 }),
      400,
      /port/,
    );
    expectError(
      await http(server.baseUrl, 'POST', '/os/applet/terminate', { type: 'WORKSTREAM_ACTIVITY' }),
      404,
      /no WORKSTREAM_ACTIVITY applet/,
    );
  });

  it("serves the page with a Content-Security-Policy without inline script, and the app's files gzipped and cached by hash", async () => {
    const { port } = await launch('COPILOT');
    const page = await http(local(port), 'GET', '/');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe|unsafe-eval/);
    expect(csp).toMatch(/style-src 'self' 'nonce-[^']+';/); // inline <style> only with the page's nonce
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toMatch(/frame-ancestors [^;]*vscode-webview:[^;]*app:\/\/obsidian\.md[^;]*http:\/\/localhost:\*/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // CodeMirror's one <style> element carries the page's nonce, new with every page.
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1];
    expect(page.text).toContain(`<meta name="trove-nonce" content="${nonce}"`);
    expect((await http(local(port), 'GET', '/')).headers.get('content-security-policy')).not.toContain(nonce);
    expect(page.text).not.toMatch(/<script>(?!<)/); // no inline script
    const script = /<script type="module" crossorigin src="(\/_app\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    const raw = await nodeRequest(`${local(port)}${script}`, 'GET', undefined, { 'accept-encoding': 'gzip' });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(raw.headers['content-type']).toMatch(/^text\/javascript/);
    const plain = await http(local(port), 'GET', script, undefined, { 'accept-encoding': 'identity' });
    expect(plain.text.length).toBeGreaterThan(1000);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expectError(await http(local(port), 'GET', '/_app/assets/nope.js'), 404, /no file/);
    expectError(await http(local(port), 'GET', '/_app/..%2f..%2fpackage.json'), 404);
    expect((await nodeRequest(`${local(port)}/_app/%2e%2e/package.json`, 'GET')).status).toBe(400);
  });

  it("an applet's port keeps Trove's guards: the Host allow-list and browser Origins", async () => {
    const { port } = await launch('COPILOT');
    const hostile = await nodeRequest(`${local(port)}/assets`, 'GET', undefined, { host: `evil.example:${port}` });
    expect(hostile.status).toBe(403);
    const origin = await nodeRequest(`${local(port)}/assets/create`, 'POST', '{}', { origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    expect(await refusedUpgrade(`${local(port)}/assets/stream/identifiers`, { origin: 'https://evil.example' })).toBe(
      403,
    );
    // Its own pages' Origin (same origin) is allowed.
    const own = await nodeRequest(`${local(port)}/.well-known/version`, 'GET', undefined, {
      origin: `http://localhost:${port}`,
      host: `localhost:${port}`,
    });
    expect(own.status).toBe(200);
  });

  it('GET /os/restart keeps the applets on their ports', async () => {
    const before = Object.fromEntries(await Promise.all(TYPES.map(async (t) => [t, (await launch(t)).port])));
    expect((await http(server.baseUrl, 'GET', '/os/restart')).text).toBe('restarting');
    for (let i = 0; i < 100; i++) {
      if ((await fetch(`${server.baseUrl}/.well-known/health`).catch(() => null))?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < 50 && !(await fetch(`${local(before.COPILOT)}/.well-known/health`).catch(() => null)); i++)
      await new Promise((r) => setTimeout(r, 100));
    for (const type of TYPES) {
      expect((await launch(type)).port).toBe(before[type]);
      expect(viewOf((await http(`http://localhost:${before[type]}`, 'GET', '/')).text)).toBe(VIEW[type]);
    }
  });

  it('Settings reads version and storage from /trove/about', async () => {
    const about = (await http(server.baseUrl, 'GET', '/trove/about')).json;
    expect(about).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      storage: expect.stringMatching(/^(sqlite|postgres)$/),
      databasePath: about.storage === 'sqlite' ? expect.stringMatching(/trove\.db$/) : null,
      databaseBytes: about.storage === 'sqlite' ? expect.any(Number) : null,
      dataDir: server.config.dataDir,
      port: Number(new URL(server.baseUrl).port),
      apiKeysRequired: false,
    });
  });
});

describe('applets with API keys', () => {
  const server = useTestServer({ TROVE_API_KEYS: KEY });

  it('the page and its files are public; the API on the applet port wants the key, over HTTP and as a WebSocket subprotocol', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    expectError(await http(server.baseUrl, 'POST', '/os/applet/launch', { type: 'SAVED_MATERIALS' }), 401);
    const { port } = (await http(server.baseUrl, 'POST', '/os/applet/launch', { type: 'SAVED_MATERIALS' }, auth)).json;
    const page = await http(local(port), 'GET', '/');
    expect(page.status).toBe(200);
    const script = /src="(\/_app\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    expect((await http(local(port), 'GET', script)).status).toBe(200);
    expectError(await http(local(port), 'GET', '/assets?limit=1'), 401);
    expect((await http(local(port), 'GET', '/assets?limit=1', undefined, auth)).status).toBe(200);

    expect(await refusedUpgrade(`${local(port)}/assets/stream/identifiers`)).toBe(401);
    const key = Buffer.from(KEY).toString('base64url');
    const socket = new WebSocket(`ws://127.0.0.1:${port}/assets/stream/identifiers`, ['trove', `trove.key.${key}`]);
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(data.toString()));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
    expect(socket.protocol).toBe('trove');
    expect(JSON.parse(first)).toEqual({ iterable: [] });
    socket.close();
    const wrong = Buffer.from('not-the-key').toString('base64url');
    expect(
      await refusedUpgradeWith(`ws://127.0.0.1:${port}/assets/stream/identifiers`, ['trove', `trove.key.${wrong}`]),
    ).toBe(401);
  });
});

function refusedUpgradeWith(url: string, protocols: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols);
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => reject(new Error('upgrade was accepted')));
  });
}
