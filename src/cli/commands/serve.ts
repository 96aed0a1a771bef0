import { AppConfig } from '../../common/config/app-config';
import { startServer } from '../../bootstrap';
import { CliError } from '../exit-codes';
import { storeConfig } from '../store';

export interface ServeOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  databaseUrl?: string;
  logLevel?: string;
}

/** The environment `npm start` would read, with the options in place of their variables. */
export function serveEnvironment(options: ServeOptions): Record<string, string> {
  const env: Record<string, string> = {};
  if (options.port !== undefined) env.PORT = String(options.port);
  if (options.host !== undefined) env.HOST = options.host;
  if (options.logLevel !== undefined) env.TROVE_LOG_LEVEL = options.logLevel;
  return env;
}

/**
 * `trove serve`: the server, started by the same code as `npm start` (src/main.ts: loadConfig over
 * the environment, then startServer) in this process: same configuration, same signal handling
 * (SIGINT / SIGTERM close it gracefully), same exit code 78 on an invalid environment. Resolves
 * once it listens; the process then lives as long as the server.
 */
export async function serve(options: ServeOptions): Promise<AppConfig> {
  const config = storeConfig({ dataDir: options.dataDir, databaseUrl: options.databaseUrl }, serveEnvironment(options));
  try {
    await startServer(config);
  } catch (error) {
    // As main.ts reports it.
    throw new CliError(`Trove failed to start: ${(error as Error)?.message ?? error}`);
  }
  return config;
}
