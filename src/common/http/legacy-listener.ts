import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { AppConfig } from '../config/app-config';
import { ExtraListener } from './extra-listener';

/**
 * A second port for the same app (TROVE_LEGACY_PORT): the port older Pieces clients and the SDK
 * examples hard-code (5323 on Linux, 1000 elsewhere), an ExtraListener, so every hook runs on it.
 * It closes when the main server closes. Null when the port cannot be had (logged).
 */
export async function listenOnLegacyPort(
  app: NestFastifyApplication,
  config: AppConfig,
  port: number,
): Promise<ExtraListener | null> {
  const logger = new Logger('Trove');
  const main = app.getHttpServer() as Server;
  let legacy: ExtraListener;
  try {
    legacy = await ExtraListener.open(main, config, port);
  } catch (error) {
    logger.error(
      `cannot listen on the legacy port ${config.host}:${port} (TROVE_LEGACY_PORT): ${(error as Error).message}`,
    );
    return null;
  }
  // An app closed by its own shutdown hooks (not by startServer) closes this port too.
  main.once('close', () => void legacy.close());
  logger.log(`also listening on the legacy port http://${config.host}:${port} (TROVE_LEGACY_PORT)`);
  return legacy;
}
