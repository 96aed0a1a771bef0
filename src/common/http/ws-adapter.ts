import { INestApplicationContext, Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage } from 'node:http';
import type { Server } from 'ws';
import { AppConfig } from '../config/app-config';
import { originAllowed } from './cors';

/**
 * `@nestjs/platform-ws` on the HTTP port (gateways route by exact path; any other path is
 * refused), with the socket policy of every gateway in one place: a browser Origin must be
 * an allowed origin (TROVE_CORS_ORIGINS; otherwise 403 on the upgrade), incoming messages are
 * capped at TROVE_WS_MAX_PAYLOAD (a larger one closes the socket with 1009), no compression.
 */
export class TroveWsAdapter extends WsAdapter {
  private readonly log = new Logger('WebSocket');

  constructor(
    app: INestApplicationContext,
    private readonly config: AppConfig,
  ) {
    super(app);
  }

  override create(port: number, options: Record<string, unknown> = {}): Server {
    return super.create(port, {
      ...options,
      maxPayload: this.config.wsMaxPayload,
      perMessageDeflate: false,
      verifyClient: (info: { origin?: string; req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string) => void) => {
        const origin = info.req.headers.origin;
        if (!origin || originAllowed(origin, this.config.corsOrigins)) return done(true);
        this.log.debug(`refused WebSocket upgrade from origin ${origin}`);
        done(false, 403, 'Origin not allowed');
      },
    });
  }

  /** Client-side failures (a too-large message, a reset) are the client's business: debug level. */
  override bindErrorHandler(server: Server): Server {
    server.on('connection', (socket) => socket.on('error', (error: Error) => this.log.debug(error.message)));
    server.on('error', (error: Error) => this.log.error(error.message));
    return server;
  }
}
