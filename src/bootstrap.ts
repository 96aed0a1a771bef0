import { Logger, LogLevel, ShutdownSignal } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { mkdirSync } from 'node:fs';
import { RequestListener, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from './common/config/app-config';
import { AppHost, StoreState } from './common/config/app-host';
import { configureApp } from './common/http/configure-app';
import { PressureGauge, pressureGauge } from './common/http/overload-guard';
import { ExtraListener } from './common/http/extra-listener';
import { listenOnLegacyPort } from './common/http/legacy-listener';
import { requestId } from './common/http/request-log';
import { httpServerOptions } from './common/http/server-options';
import { PortFile } from './common/net/port-file';
import { Metrics } from './common/metrics/metrics';
import { AppModule } from './app.module';
import { SignIn } from './teams/sign-in';
import { TeamFront } from './teams/team-front';
import { startBanner } from './banner';
import { TroveLogger } from './logger';
import { AppletListeners, RunningApplet } from './modules/applets/applet-listeners';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

export interface AppOptions {
  /**
   * Replaces the app by a fresh one; GET /os/restart calls it once its answer is sent. Without
   * it (benchmarks, scripts) that route answers 503: only whoever started the app can start another.
   */
  restart?: () => void;
  /**
   * Closes the app for good and ends the process; POST /os/terminate calls it once its answer is
   * sent. Without it that route answers 503.
   */
  terminate?: () => void;
  /**
   * A team store's app (src/teams): its requests come from the team front, never from a port of
   * its own, it counts them in the process's `metrics`, refuses them while the process's `pressure`
   * says it is overloaded, and the front closes it (no signal handlers).
   */
  managed?: { metrics: Metrics; census: Set<StoreState>; pressure: PressureGauge };
}

/** Builds the whole application, ready to listen: used by main.ts, the tests and the benchmarks. */
export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  if (config.dialect === 'sqlite') mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: requestId,
    serverFactory: (handler: RequestListener) => createServer(httpServerOptions(config), handler),
  });
  const host = new AppHost(options.restart ?? null, options.terminate ?? null, options.managed?.census);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, host), adapter, {
    logger: new TroveLogger({
      logLevels: LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1),
      json: config.logFormat === 'json',
    }),
    abortOnError: false,
    bodyParser: false, // configureApp installs the JSON parser
  });
  await configureApp(app, config, { metrics: options.managed?.metrics, pressure: options.managed?.pressure });
  // An app that can restart belongs to a TroveServer, which closes it on SIGTERM, SIGINT, ...
  // across restarts, as a team store's app belongs to the team front; any other closes itself
  // (Nest's shutdown hooks).
  if (!options.restart && !options.managed) app.enableShutdownHooks();
  return app;
}

/** A running Trove (main.ts, the e2e tests): its app is replaced by a fresh one on each restart. */
export interface TroveServer {
  /** The current application: a new one after each restart. */
  readonly app: NestFastifyApplication;
  /** The port listened on, kept across restarts (the one picked when PORT is 0). */
  readonly port: number;
  /**
   * Closes the app the normal way (every shutdown hook runs: activities flushed, sockets closed,
   * writes drained, database closed), then starts a fresh one from the same AppConfig on the same
   * host and port. Calls made meanwhile join it; after close() it does nothing.
   */
  restart(): Promise<void>;
  /** Closes the app for good (after a restart under way, if any). */
  close(): Promise<void>;
}

export interface ServerOptions {
  /**
   * A restart asked for by GET /os/restart failed (the port was taken meanwhile, a shutdown hook
   * threw, ...). Default: log it and exit with code 1, since a process without a server is worse
   * than none.
   */
  onRestartFailure?: (error: unknown) => void;
  /**
   * POST /os/terminate closed the server (every shutdown hook ran, the port file is removed).
   * Default: exit with code 0, as a process whose server is closed has nothing left to do.
   */
  onTerminated?: () => void;
}

/** Creates the app and listens on the configured host and port; GET /os/restart restarts it in-process. */
export async function startServer(config: AppConfig, options: ServerOptions = {}): Promise<TroveServer> {
  const server = new RestartableServer(
    config,
    options.onRestartFailure ?? exitOnRestartFailure,
    options.onTerminated ?? (() => process.exit(0)),
  );
  await server.start();
  return server;
}

function exitOnRestartFailure(error: unknown): void {
  new Logger('Trove').fatal(`restart failed, exiting: ${(error as Error)?.stack ?? error}`);
  process.exit(1);
}

class RestartableServer implements TroveServer {
  private readonly logger = new Logger('Trove');
  /** The app listening now; null while a restart is between two apps, and once closed. */
  private live: NestFastifyApplication | null = null;
  private last: NestFastifyApplication | null = null;
  private restarting: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private listenPort: number;
  private legacy: ExtraListener | null = null;
  /** The team front (src/teams): with no user defined it hands every request to the app. */
  private front: TeamFront | null = null;
  private restarts = 0;
  private readonly portFile: PortFile;
  /** Signals are handled here, not by each app, so that one arriving mid-restart closes the new app, once. */
  private readonly signals = Object.values(ShutdownSignal);
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.close().then(
      () => process.kill(process.pid, signal), // no listener left: the signal's own action ends the process
      (error) => {
        this.logger.error(`shutdown failed: ${(error as Error)?.stack ?? error}`);
        process.exit(1);
      },
    );
  };

  constructor(
    private readonly config: AppConfig,
    private readonly onRestartFailure: (error: unknown) => void,
    private readonly onTerminated: () => void,
  ) {
    this.listenPort = config.port;
    this.portFile = new PortFile(config.portFile);
  }

  get app(): NestFastifyApplication {
    return this.last!;
  }

  get port(): number {
    return this.listenPort;
  }

  async start(): Promise<void> {
    await this.boot();
    for (const signal of this.signals) process.on(signal, this.onSignal);
    // Kept across restarts (same port); removed only by close().
    this.portFile.write(this.listenPort);
  }

  restart(): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.restarting ??= (async () => {
      const old = this.live;
      this.live = null;
      this.logger.log('restarting: closing the app, then a fresh one on the same port');
      // The plugins' applets keep their ports: their frames reload from the fresh app.
      const applets = (await old?.get(AppletListeners).running()) ?? [];
      await this.closeFront();
      await old?.close();
      await this.closeLegacy();
      if (this.closing) return; // a signal arrived meanwhile: no fresh app to close at once
      await this.boot(applets);
    })().finally(() => (this.restarting = null));
    return this.restarting;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const signal of this.signals) process.removeListener(signal, this.onSignal);
      await this.restarting?.catch(() => undefined);
      const app = this.live;
      this.live = null;
      await this.closeFront();
      await app?.close();
      await this.closeLegacy();
      this.portFile.remove();
    })();
    return this.closing;
  }

  /** POST /os/terminate: closed the way a signal closes it, then onTerminated (by default the process exits 0). */
  private terminate(): void {
    this.logger.log('terminating (POST /os/terminate): closing the app');
    this.close().then(this.onTerminated, (error) => {
      this.logger.error(`shutdown failed: ${(error as Error)?.stack ?? error}`);
      process.exit(1);
    });
  }

  private async closeFront(): Promise<void> {
    const front = this.front;
    this.front = null;
    await front?.close().catch((error: Error) => this.logger.error(`closing the team stores failed: ${error.message}`));
  }

  private async closeLegacy(): Promise<void> {
    const legacy = this.legacy;
    this.legacy = null;
    await legacy?.close();
  }

  /** TROVE_OIDC_REDIRECT_URL, else /auth/callback at HOST and the port listened on. */
  private callbackUrl(): string {
    if (this.config.oidcRedirectUrl) return this.config.oidcRedirectUrl;
    const host = ['0.0.0.0', '::', '[::]'].includes(this.config.host)
      ? 'localhost'
      : this.config.host.includes(':') && !this.config.host.startsWith('[')
        ? `[${this.config.host}]`
        : this.config.host;
    return `http://${host}:${this.listenPort}/auth/callback`;
  }

  private async boot(applets: RunningApplet[] = []): Promise<void> {
    const app = await createApp(this.config, {
      restart: () => void this.restart().catch(this.onRestartFailure),
      terminate: () => this.terminate(),
    });
    try {
      // The team front goes before the app's own listeners ahead of listening: nothing reaches the app around it.
      await app.init();
      const managed = {
        metrics: app.get(Metrics),
        census: app.get(AppHost).census,
        pressure: pressureGauge(app.getHttpAdapter().getInstance() as unknown as FastifyInstance, this.config),
      };
      this.front = await TeamFront.start(this.config, async (storeConfig) => {
        const store = await createApp(storeConfig, { managed });
        await store.init();
        return store;
      });
      this.front.sessions = new SignIn(this.config, this.front, () => this.callbackUrl());
      this.front.install(app);
      await app.listen(this.listenPort, this.config.host);
    } catch (error) {
      await this.closeFront();
      await app.close().catch(() => undefined);
      throw error;
    }
    this.listenPort = (app.getHttpServer().address() as AddressInfo).port;
    // Live as soon as it listens: it is what answers on the port (the warm-up below included), and
    // what a restart or a stop asked for from now on closes.
    this.live = this.last = app;
    // The clients' port scans give each port 0.1 s (the Python SDK's health check too): the first
    // answers of a fresh process are the slowest (code paths run and compiled for the first time,
    // the first read of the database), so the health route runs once in-process before anyone is
    // told where to find it (the log line, the port file).
    await app.inject({ method: 'HEAD', url: '/.well-known/health' });
    await app.inject({ method: 'GET', url: '/.well-known/health' });
    if (this.config.legacyPort !== null) {
      this.legacy = await listenOnLegacyPort(app, this.config, this.config.legacyPort);
    }
    await app
      .get(AppletListeners)
      .reopen(applets)
      .catch((error: Error) => this.logger.warn(`applets not reopened: ${error.message}`));
    if (this.restarts++ === 0) this.logger.log(await startBanner(app, this.config, this.listenPort));
    else this.logger.log(`listening again on port ${this.listenPort}`);
  }
}
