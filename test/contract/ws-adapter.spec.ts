import { WsAdapter } from '@nestjs/platform-ws';
import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';

/**
 * Contract of TroveWsAdapter.ensureHttpServerExists (src/common/http/ws-adapter.ts): what it
 * relies on in @nestjs/platform-ws's WsAdapter, on a real HTTP server and a real `ws` client.
 * Creating the first gateway of the HTTP server's port adds exactly one `upgrade` listener,
 * which hands an upgrade to the gateway of its path (exact path) and destroys the socket of any
 * other path; the gateways' paths are in `wsServersRegistry`. Trove keeps that listener for the
 * gateways' paths and answers the others in JSON: if this fails after an upgrade, adapt the
 * override, not the gateways.
 */
class Probe extends WsAdapter {
  registered(port: number): string[] {
    return ((this.wsServersRegistry.get(port) ?? []) as Array<{ path: string }>).map((s) => s.path);
  }
}

describe('contract: ws-adapter.ts (@nestjs/platform-ws WsAdapter and its upgrade listener)', () => {
  let http: HttpServer;
  let adapter: Probe;
  let base: string;

  beforeAll(async () => {
    http = createServer();
    adapter = new Probe(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await adapter.dispose();
    await new Promise((resolve) => http.close(resolve));
  });

  it('adds one upgrade listener with the first gateway, none with the next, and registers each path', () => {
    expect(http.listeners('upgrade')).toHaveLength(0);
    const first = adapter.create(0, { path: '/first' }) as WebSocket.Server;
    first.on('connection', (socket) => socket.send('first'));
    expect(http.listeners('upgrade')).toHaveLength(1);
    adapter.create(0, { path: '/second' });
    expect(http.listeners('upgrade')).toHaveLength(1);
    expect(adapter.registered(0)).toEqual(['/first', '/second']);
  });

  it("hands an upgrade to its path's gateway and destroys any other (the case Trove answers itself)", async () => {
    const socket = new WebSocket(`${base}/first`);
    const frame = await new Promise<string>((resolve, reject) => {
      socket.on('message', (data) => resolve(data.toString()));
      socket.on('error', reject);
    });
    expect(frame).toBe('first');
    socket.close();
    const other = new WebSocket(`${base}/other`);
    const outcome = await new Promise<string>((resolve) => {
      other.on('open', () => resolve('open'));
      other.on('unexpected-response', () => resolve('answered'));
      other.on('error', (error) =>
        resolve(/socket hang up|ECONNRESET/.test(error.message) ? 'destroyed' : error.message),
      );
    });
    expect(outcome).toBe('destroyed');
  });
});
