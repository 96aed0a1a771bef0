import { ConsoleLogger } from '@nestjs/common';

/**
 * Nest's own start-up chatter (a line per module, per controller and per route: ~150 lines) is
 * debug-level here: `npm start` prints the banner instead (banner.ts). TROVE_LOG_LEVEL=debug
 * shows them again.
 */
const START_UP = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication', 'WebSocketsController']);

export class TroveLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && START_UP.has(context)) super.debug(message, ...rest);
    else super.log(message, ...rest);
  }
}
