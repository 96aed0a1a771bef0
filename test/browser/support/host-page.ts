import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A page on another origin that plays an editor plugin's part, as Obsidian 2.0.1 does it: it
 * launches the three applets (`POST /os/applet/launch` with `{type, parent}`), embeds each in an
 * iframe of `http://localhost:{port}/?theme=<JSON>&application=<JSON>&capabilities=<mask>`,
 * routes every message it receives by the port of its origin, answers the applets' requests
 * (applicationReq, getStateReq, ...) with the same id, keeps what setStateReq sends, and records
 * every message. `window.host` is what the tests drive.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>plugin host</title>
<style>body{margin:0;display:flex;gap:8px} iframe{border:0;width:480px;height:720px}</style></head>
<body>
<script>
const params = new URLSearchParams(location.search);
const trove = params.get('trove');
const application = JSON.parse(params.get('application'));
const OBSIDIAN = 1 | 2 | 8 | 16 | 256 | 1024 | 2048 | 8192 | 16384 | 32 | 64 | 262144;
const APPLETS = { COPILOT: 'pieces-copilot', SAVED_MATERIALS: 'pieces-drive', FUTURE_APPLET_MODULE_PLACEHOLDER_A: 'pieces-settings' };
const host = (window.host = { messages: [], ports: {}, states: {}, theme: JSON.parse(params.get('theme')), launched: null });
function argb(a, r, g, b) { return a << 24 | r << 16 | g << 8 | b; }
function frameOf(port) { return [...document.querySelectorAll('iframe')].find((f) => new URL(f.src).port === String(port)); }
function post(port, message) { message.destination = 'webview'; frameOf(port).contentWindow.postMessage(message, '*'); }
host.url = (type, extra) => {
  const url = new URL('http://localhost:' + host.ports[type]);
  url.searchParams.append('theme', JSON.stringify(host.theme));
  url.searchParams.append('application', JSON.stringify(application));
  const mask = extra && extra.capabilities !== undefined ? extra.capabilities : type === 'FUTURE_APPLET_MODULE_PLACEHOLDER_A' ? 4194304 : OBSIDIAN;
  if (type === 'FUTURE_APPLET_MODULE_PLACEHOLDER_A') url.searchParams.append('settings', '7');
  url.searchParams.append('capabilities', String(mask));
  const state = extra && extra.state;
  if (state) url.searchParams.append('state', state);
  return url.href;
};
host.load = (type, extra) => { frameOf(host.ports[type]).src = host.url(type, extra); };
host.setTheme = (theme) => {
  host.theme = theme;
  for (const frame of document.querySelectorAll('iframe')) frame.contentWindow.postMessage({ type: 'setTheme', destination: 'webview', data: theme }, '*');
};
host.send = (type, message) => post(host.ports[type], message);
const RESPONSES = { applicationReq: 'applicationRes', getStateReq: 'getStateRes', getUserPreferencesReq: 'getUserPreferencesRes' };
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.destination !== 'extension') return;
  const port = Number(event.origin.split(':').pop());
  host.messages.push({ port, origin: event.origin, data });
  if (data.type === 'setStateReq') host.states[port] = data.data.state;
  if (data.type === 'applicationReq') post(port, { type: 'applicationRes', id: data.id, data: application });
  else if (data.type === 'getStateReq') post(port, { type: 'getStateRes', id: data.id, data: { state: host.states[port] } });
  else if (/Req$/.test(data.type) && data.type !== 'setStateReq') post(port, { type: data.type, id: data.id, data: 'Not implemented' });
});
host.launched = (async () => {
  for (const [type, id] of Object.entries(APPLETS)) {
    const response = await fetch(trove + '/os/applet/launch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type, parent: application }) });
    const applet = await response.json();
    host.ports[type] = applet.port;
    const frame = document.createElement('iframe');
    frame.id = id;
    frame.setAttribute('allow', 'clipboard-read; clipboard-write;');
    frame.src = host.url(type);
    document.body.appendChild(frame);
  }
  return host.ports;
})();
</script>
</body></html>`;

export interface HostPage {
  url: (trove: string, application: unknown, theme: unknown) => string;
  close: () => Promise<void>;
}

export async function startHostPage(): Promise<HostPage> {
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith('/host.html')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (trove, application, theme) =>
      `http://127.0.0.1:${port}/host.html?${new URLSearchParams({ trove, application: JSON.stringify(application), theme: JSON.stringify(theme) })}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
