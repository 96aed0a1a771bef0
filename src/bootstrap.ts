import { Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { WsAdapter } from '@nestjs/platform-ws';
import { mkdirSync } from 'node:fs';
import { AppConfig } from './common/config/app-config';
import { configureApp } from './common/http/configure-app';
import { AppModule } from './app.module';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Builds the whole application, ready to listen: used by main.ts, the tests and the benchmarks. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  if (config.dialect === 'sqlite') mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const adapter = new FastifyAdapter({ bodyLimit: config.bodyLimit, routerOptions: { ignoreTrailingSlash: true } });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1),
    abortOnError: false,
    bodyParser: false, // configureApp installs the JSON parser
  });
  configureApp(app, config);
  // WebSocket routes (/qgpt/stream, ...) share the HTTP server's port.
  app.useWebSocketAdapter(new WsAdapter(app));
  app.enableShutdownHooks();
  return app;
}

/** Creates the app and listens on the configured host and port. */
export async function startServer(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as { port: number };
  new Logger('Trove').log(`listening on http://${config.host}:${port} (${config.dialect === 'sqlite' ? config.sqlitePath : 'PostgreSQL'})`);
  return app;
}
