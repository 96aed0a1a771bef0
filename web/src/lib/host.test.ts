import { describe, expect, it, vi } from 'vitest';
import { Capability, Host, hasCapability, parseCapabilities, type HostWindow } from './host';

function fakeWindow() {
  const posted: unknown[] = [];
  let listener: ((event: MessageEvent) => void) | null = null;
  const win: HostWindow = {
    parent: { postMessage: (message) => posted.push(message) },
    addEventListener: (_type, l) => (listener = l),
    removeEventListener: () => (listener = null),
  };
  return { win, posted, deliver: (data: unknown) => listener?.({ data } as MessageEvent) };
}

// The mask Obsidian 2.0.1 sends to Copilot and Drive.
const OBSIDIAN = 1 | 2 | 8 | 16 | 256 | 1024 | 2048 | 8192 | 16384 | 32 | 64 | 262144;

describe('capabilities', () => {
  it('reads the bits the plugins send', () => {
    const mask = parseCapabilities(String(OBSIDIAN));
    expect(mask).toBe(290171);
    for (const name of Object.keys(Capability) as Array<keyof typeof Capability>)
      expect(hasCapability(mask, name)).toBe(true);
    expect(hasCapability(4194304, 'insertAtCursor')).toBe(false); // Settings' mask: openOnboarding only
  });
  it('treats anything but a non-negative integer as no capability', () => {
    for (const bad of [null, '', '-1', '1.5', 'abc', '1e3', '99999999999']) expect(parseCapabilities(bad)).toBe(0);
  });
});

describe('Host', () => {
  it('sends one-way messages with destination "extension" and offers only what the mask allows', () => {
    const { win, posted } = fakeWindow();
    const host = new Host(win, { capabilities: Capability.copyToClipboard | Capability.loaded, embedded: true });
    host.send('loaded');
    host.send('copyToClipboard', 'x = 1');
    expect(posted).toEqual([
      { destination: 'extension', type: 'loaded' },
      { destination: 'extension', type: 'copyToClipboard', data: 'x = 1' },
    ]);
    expect(host.can('copyToClipboard')).toBe(true);
    expect(host.can('insertAtCursor')).toBe(false);
  });

  it('pairs a request with the answer that carries its id and the response type', async () => {
    const { win, posted, deliver } = fakeWindow();
    const host = new Host(win, { capabilities: 0, embedded: true, newId: () => 'id-1' });
    const answer = host.request('getStateReq');
    expect(posted).toEqual([{ destination: 'extension', type: 'getStateReq', id: 'id-1' }]);
    deliver({ destination: 'webview', type: 'getStateRes', id: 'other', data: { state: 'no' } });
    deliver({ destination: 'webview', type: 'getStateRes', id: 'id-1', data: { state: '{"view":"copilot"}' } });
    await expect(answer).resolves.toEqual({ state: '{"view":"copilot"}' });
  });

  it("fails a request the host answers with the request's own type (its error form), and one it never answers", async () => {
    vi.useFakeTimers();
    const { win, deliver } = fakeWindow();
    let n = 0;
    const host = new Host(win, { capabilities: 0, embedded: true, timeoutMs: 100, newId: () => `r${n++}` });
    const failed = host.request('applicationReq');
    deliver({ destination: 'webview', type: 'applicationReq', id: 'r0', data: 'Not implemented' });
    await expect(failed).rejects.toThrow('Not implemented');
    const silent = host.request('getUserPreferencesReq');
    vi.advanceTimersByTime(150);
    await expect(silent).rejects.toThrow(/did not answer/);
    vi.useRealTimers();
  });

  it('hands other messages to their listeners and ignores messages not meant for the webview', () => {
    const { win, deliver } = fakeWindow();
    const host = new Host(win, { capabilities: 0, embedded: true });
    const themes: unknown[] = [];
    host.on('setTheme', (data) => themes.push(data));
    deliver({ destination: 'extension', type: 'setTheme', data: 1 });
    deliver({ type: 'setTheme', data: 2 });
    deliver('setTheme');
    deliver({ destination: 'webview', type: 'setTheme', data: { darkMode: true } });
    expect(themes).toEqual([{ darkMode: true }]);
  });

  it('outside an iframe sends nothing and can nothing', async () => {
    const { win, posted } = fakeWindow();
    const host = new Host(win, { capabilities: OBSIDIAN, embedded: false });
    host.send('loaded');
    expect(posted).toEqual([]);
    expect(host.can('insertAtCursor')).toBe(false);
    await expect(host.request('applicationReq')).rejects.toThrow(/no host/);
  });
});
