import { Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import { RequestListener, createServer } from 'node:http';
import { AppConfig } from './common/config/app-config';
import { configureApp } from './common/http/configure-app';
import { AppModule } from './app.module';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Builds the whole application, ready to listen: used by main.ts, the tests and the benchmarks. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  if (config.dialect === 'sqlite') mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    // A slow client is cut off: the whole request within requestTimeout, its headers within
    // headersTimeout, checked every second (Node checks every 30 s by default).
    serverFactory: (handler: RequestListener) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: config.headersTimeoutMs,
          connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
        },
        handler,
      ),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1),
    abortOnError: false,
    bodyParser: false, // configureApp installs the JSON parser
  });
  await configureApp(app, config);
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
