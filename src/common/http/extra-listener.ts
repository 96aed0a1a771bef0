import { Server, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AppConfig } from '../config/app-config';
import { httpServerOptions } from './server-options';

/** The events of the app's own server that an extra listener hands to the same handlers. */
const FORWARDED = ['request', 'upgrade', 'checkContinue', 'clientError'] as const;

/**
 * Another port for the same app (the legacy port, each applet's port): an HTTP server on the
 * app's host whose requests, WebSocket upgrades, 100-continue requests and client errors go to
 * the very listeners of the app's own server (the one Fastify instance and the WebSocket
 * adapter), so every hook runs unchanged: Host and Origin allow-lists, API keys, rate limits,
 * bounds. Open it once the app is listening (the WebSocket adapter has attached its upgrade
 * listener by then).
 */
export class ExtraListener {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly port: number,
  ) {}

  /** Listens on `port` (0: any free port); rejects as `listen` does (EADDRINUSE, EACCES, ...). */
  static async open(main: Server, config: AppConfig, port: number): Promise<ExtraListener> {
    const server = createServer(httpServerOptions(config));
    for (const event of FORWARDED) {
      for (const handler of main.listeners(event)) server.on(event, handler as (...args: unknown[]) => void);
    }
    const sockets = new Set<Socket>();
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, config.host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    return new ExtraListener(server, sockets, (server.address() as AddressInfo).port);
  }

  /** Stops listening and ends every connection, upgraded ones (WebSockets) too; resolves once the port is free. */
  close(): Promise<void> {
    if (!this.server.listening) return Promise.resolve();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
      for (const socket of this.sockets) socket.destroy();
    });
  }
}
