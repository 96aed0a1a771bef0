import 'reflect-metadata';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Configuration } from '@pieces.app/pieces-os-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startServer } from '../../../src/bootstrap';
import { AppConfig, loadConfig } from '../../../src/common/config/app-config';
import { freshPostgresDatabase, testDatabaseUrl } from '../../support/databases';

export interface TestServer {
  /** The current application: a fresh one after each restart (GET /os/restart). */
  readonly app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  /** SDK configuration pointing at this server. */
  sdk: Configuration;
  /** Runs SQL against the server's own database (for checking that nothing was written). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** `table=rows ...` for the given tables: a rejected request must leave it unchanged. */
  counts(tables: string[]): Promise<string>;
  /** Restarts in-process as GET /os/restart does (same host, port and database). */
  restart(): Promise<void>;
  /** Closes the current app (after a restart under way); fails when a restart requested by GET /os/restart failed. */
  close(): Promise<void>;
}

export { freshPostgresDatabase, testDatabaseUrl } from '../../support/databases';

/**
 * The configuration of an instance booted inside the test runner, on 127.0.0.1 and a free port.
 * ts-jest compiles modules synchronously inside this very process, and every spec file's
 * servers share its memory: that lag and that RSS are the test runner's, not the server's, so
 * the overload guards are off unless `env` asks for them, and so is the Pieces port file (a test
 * of it gives a temporary HOME).
 */
export function testConfig(env: Record<string, string>): AppConfig {
  return loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
    TROVE_MAX_RSS_MB: '0',
    // Never the port file of the real home of whoever runs the tests (its tests set HOME).
    TROVE_PORT_FILE: 'off',
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
  });
}

/**
 * Boots Trove as main.ts does (same startServer, so GET /os/restart restarts it in-process, on
 * the same port) on 127.0.0.1 and a free port, with a fresh throwaway database: a temporary
 * SQLite directory, or a new PostgreSQL database when TEST_DATABASE_URL is set. `app`, `sql`
 * and `counts` use the current app, also after a restart.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { shareWith?: TestServer } = {},
): Promise<TestServer> {
  // `shareWith`: a second instance on the first one's database (same SQLite directory or
  // PostgreSQL database), left in place when this one closes.
  const shared = options.shareWith?.config;
  const dataDir = shared ? shared.dataDir : mkdtempSync(join(tmpdir(), 'trove-test-'));
  const pg = shared
    ? shared.databaseUrl
      ? { url: shared.databaseUrl, drop: async () => undefined }
      : null
    : testDatabaseUrl
      ? await freshPostgresDatabase()
      : null;
  const config = testConfig({ ...env, TROVE_DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '' });
  // A failed restart must fail the test, not end the test runner's process.
  let restartFailure: unknown = null;
  const server = await startServer(config, {
    onRestartFailure: (error) => {
      restartFailure = error;
      console.error('restart failed:', error);
    },
    // POST /os/terminate closes the server; the test runner's process goes on (terminate.spec.ts
    // runs a real process to see it exit).
    onTerminated: () => undefined,
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const dataSource = () => server.app.get(DataSource);
  return {
    get app() {
      return server.app;
    },
    config,
    baseUrl,
    sdk: new Configuration({ basePath: baseUrl }),
    sql: (query, params) => dataSource().query(query, params),
    counts: async (tables) => {
      const rows = await Promise.all(tables.map((t) => dataSource().query(`SELECT COUNT(*) AS n FROM ${t}`)));
      return rows.map((r, i) => `${tables[i]}=${r[0].n}`).join(' ');
    },
    restart: () => server.restart(),
    close: async () => {
      await server.close();
      await pg?.drop();
      if (!shared) rmSync(dataDir, { recursive: true, force: true });
      if (restartFailure) throw restartFailure;
    },
  };
}

/**
 * The server of a `describe` block: started in its beforeAll (registered here, so before any
 * beforeAll the spec registers after calling this), closed in its afterAll. Use the object it
 * returns in hooks and tests (not at collection time): it forwards to the running server, also
 * after a restart. `env` may be a function, read when the server starts (e.g. a directory a
 * beforeAll registered before this call creates).
 *
 *   const server = useTestServer({ TROVE_API_KEYS: KEY });
 *   it('...', async () => { await http(server.baseUrl, 'GET', '/assets'); });
 */
export function useTestServer(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: { shareWith?: TestServer } = {},
): TestServer {
  let current: TestServer | null = null;
  const started = (): TestServer => {
    if (!current)
      throw new Error('useTestServer: the server runs from beforeAll to afterAll; use it inside hooks and tests');
    return current;
  };
  beforeAll(async () => {
    current = await startTestServer(typeof env === 'function' ? env() : env, options);
  });
  afterAll(async () => {
    const server = current;
    current = null;
    await server?.close();
  });
  return {
    get app() {
      return started().app;
    },
    get config() {
      return started().config;
    },
    get baseUrl() {
      return started().baseUrl;
    },
    get sdk() {
      return started().sdk;
    },
    sql<T = Record<string, unknown>>(query: string, params?: unknown[]) {
      return started().sql<T>(query, params);
    },
    counts: (tables) => started().counts(tables),
    restart: () => started().restart(),
    close: () => started().close(),
  };
}

/**
 * Resolves once the server's search index is written with this release's analysis: a store an
 * older analysis indexed is re-indexed in the background after boot (SearchIndex), and the
 * version recorded when that is done.
 */
export async function searchReindexed(server: TestServer, version: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    Number((await server.sql<{ version: number }>(`SELECT version FROM search_analysis`))[0].version) !== version
  ) {
    if (Date.now() > deadline) throw new Error(`the search index was not re-indexed within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
