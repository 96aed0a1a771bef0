import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { LogFields } from './common/http/request-log';

/**
 * Nest's own start-up chatter (a line per module, per controller and per route: ~150 lines) is
 * debug-level here: `npm start` prints the banner instead (banner.ts). TROVE_LOG_LEVEL=debug
 * shows them again.
 */
const START_UP = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
  'WebSocketsController',
]);

interface JsonOptions {
  context: string;
  logLevel: LogLevel;
  writeStreamType?: 'stdout' | 'stderr';
  errorStack?: unknown;
}

export class TroveLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && START_UP.has(context)) super.debug(message, ...rest);
    else super.log(message, ...rest);
  }

  /**
   * TROVE_LOG_FORMAT=json: one object a line, the same envelope for Nest's lines and the request
   * lines (`time` as ISO 8601, `level`, `context`, `message`), a LogFields' fields beside them.
   */
  protected override printAsJson(message: unknown, options: JsonOptions): void {
    const line: Record<string, unknown> = { time: new Date().toISOString(), level: options.logLevel, pid: process.pid };
    if (options.context) line.context = options.context;
    if (message instanceof LogFields) Object.assign(line, { message: message.message }, message.fields);
    else line.message = message;
    if (options.errorStack) line.stack = options.errorStack;
    process[options.writeStreamType ?? 'stdout'].write(`${this.stringifyJsonLogObject(line)}\n`);
  }
}
