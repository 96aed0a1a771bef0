import type { ServerOptions } from 'node:http';
import { AppConfig } from '../config/app-config';

/**
 * The options of every HTTP server Trove listens with (its port, the applets' ports): a slow
 * client is cut off, the whole request within requestTimeout, its headers within headersTimeout,
 * checked every second (Node checks every 30 s by default).
 */
export function httpServerOptions(config: AppConfig): ServerOptions {
  return {
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
  };
}
