import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { AppConfig } from '../../common/config/app-config';
import { ExtraListener } from '../../common/http/extra-listener';
import { AppletType } from './applet-roles';

/** An applet that was listening: what an in-process restart opens again. */
export interface RunningApplet {
  type: AppletType;
  port: number;
}

/**
 * One extra HTTP listener per applet, on the same host as Trove's port and on a port of its
 * own: the plugins route an applet's messages by the port of its origin. Each listener hands its
 * requests and WebSocket upgrades to Trove's one Fastify instance, so the applet's page and the
 * API it calls are same-origin and pass through the very same hooks (Host and Origin
 * allow-lists, API keys, rate limits, bounds). Opened on launch (idempotent), closed on
 * terminate and with the app.
 */
@Injectable()
export class AppletListeners implements OnApplicationShutdown {
  private readonly logger = new Logger('Applets');
  private readonly open = new Map<AppletType, Promise<ExtraListener>>();
  /** The port each applet last had in this process: the only port a restart may ask for. */
  private readonly lastPort = new Map<AppletType, number>();
  private closed = false;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: AppConfig,
  ) {}

  /** The applet served on this local port, if any (the page learns its role from it). */
  async typeOnPort(port: number | undefined): Promise<AppletType | null> {
    if (port === undefined) return null;
    for (const [type, pending] of this.open) {
      const listener = await pending.catch(() => null);
      if (listener?.port === port) return type;
    }
    return null;
  }

  /** Opens the applet's listener (on `port` when given and free) or answers the one already open. */
  launch(type: AppletType, port?: number): Promise<number> {
    if (this.closed) return Promise.reject(new Error('the app is closing'));
    let pending = this.open.get(type);
    if (!pending) {
      pending = this.listen(type, port);
      this.open.set(type, pending);
      pending.catch(() => this.open.delete(type));
    }
    return pending.then((listener) => listener.port);
  }

  /** Closes the applet's listener and every connection on it; nothing when it is not open. */
  async terminate(type: AppletType): Promise<void> {
    const pending = this.open.get(type);
    if (!pending) return;
    this.open.delete(type);
    const listener = await pending.catch(() => null);
    await listener?.close();
  }

  /**
   * Closes and reopens the applet on the port it had in this process when that is still free
   * (the port the plugin's frame uses), else on a new one. The `port` a plugin sends is not
   * bound as such: a restart never binds a port Trove did not hand out to this applet.
   */
  async restart(type: AppletType): Promise<number> {
    const previous = this.lastPort.get(type);
    await this.terminate(type);
    return this.launch(type, previous);
  }

  /** Opens the applets an in-process restart carries over, on their ports (given by the app that had them). */
  async reopen(applets: RunningApplet[]): Promise<void> {
    for (const { type, port } of applets) {
      this.lastPort.set(type, port);
      await this.launch(type, port);
    }
  }

  async running(): Promise<RunningApplet[]> {
    const all = await Promise.all(
      [...this.open].map(async ([type, pending]) => ({ type, listener: await pending.catch(() => null) })),
    );
    return all.filter((a) => a.listener).map((a) => ({ type: a.type, port: a.listener!.port }));
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const all = [...this.open.keys()];
    await Promise.all(all.map((type) => this.terminate(type)));
  }

  private async listen(type: AppletType, preferred?: number): Promise<ExtraListener> {
    const main = this.adapterHost.httpAdapter.getHttpServer() as Server;
    let listener: ExtraListener;
    try {
      listener = await ExtraListener.open(main, this.config, preferred ?? 0);
    } catch (error) {
      if (!preferred || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      listener = await ExtraListener.open(main, this.config, 0);
    }
    this.lastPort.set(type, listener.port);
    this.logger.debug(`${type} applet listening on http://${this.config.host}:${listener.port}`);
    return listener;
  }
}
