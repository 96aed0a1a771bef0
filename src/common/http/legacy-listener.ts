import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { RequestListener, Server } from 'node:http';

/**
 * A second port for the same app (TROVE_LEGACY_PORT): the port older Pieces clients and the SDK
 * examples hard-code (5323 on Linux, 1000 elsewhere). Its requests go to the app's own router
 * (`fastify.routing`, every hook included: Host, Origin, API keys, rate limits, bounds) and its
 * WebSocket upgrades to the main server's, so it is the same app on another port, as Fastify
 * itself does for the extra addresses of `localhost`. It closes when the main server closes.
 */
export async function listenOnLegacyPort(
  app: NestFastifyApplication,
  createServer: (handler: RequestListener) => Server,
  port: number,
  host: string,
): Promise<Server | null> {
  const logger = new Logger('Trove');
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  const main = app.getHttpServer() as Server;
  const legacy = createServer(fastify.routing as unknown as RequestListener);
  legacy.on('upgrade', (...args) => main.emit('upgrade', ...args));
  try {
    await new Promise<void>((resolve, reject) => {
      legacy.once('error', reject);
      legacy.listen(port, host, () => {
        legacy.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    logger.error(`cannot listen on the legacy port ${host}:${port} (TROVE_LEGACY_PORT): ${(error as Error).message}`);
    return null;
  }
  // An app closed by its own shutdown hooks (not by startServer) closes this port too.
  main.once('close', () => void closeLegacyListener(legacy));
  logger.log(`also listening on the legacy port http://${host}:${port} (TROVE_LEGACY_PORT)`);
  return legacy;
}

/** Stops listening and ends its connections; resolves once the port is free. */
export function closeLegacyListener(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
