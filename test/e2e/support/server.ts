import 'reflect-metadata';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Configuration } from '@pieces.app/pieces-os-client';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../../../src/bootstrap';
import { AppConfig, loadConfig } from '../../../src/common/config/app-config';

export interface TestServer {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  /** SDK configuration pointing at this server. */
  sdk: Configuration;
  /** Runs SQL against the server's own database (for checking that nothing was written). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** `table=rows ...` for the given tables: a rejected request must leave it unchanged. */
  counts(tables: string[]): Promise<string>;
  close(): Promise<void>;
}

/** The PostgreSQL server used when TEST_DATABASE_URL is set (`npm run test:pg`). */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL;

async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new URL(testDatabaseUrl!);
  const name = `trove_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(admin.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The configuration of an instance booted inside the test runner, on 127.0.0.1 and a free port.
 * ts-jest compiles modules synchronously inside this very process, and every spec file's
 * servers share its memory: that lag and that RSS are the test runner's, not the server's, so
 * the overload guards are off unless `env` asks for them.
 */
export function testConfig(env: Record<string, string>): AppConfig {
  return loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
    TROVE_MAX_RSS_MB: '0',
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
  });
}

/**
 * Boots Trove as main.ts does (same createApp, same configureApp) on 127.0.0.1 and a free
 * port, with a fresh throwaway database: a temporary SQLite directory, or a new
 * PostgreSQL database when TEST_DATABASE_URL is set.
 */
export async function startTestServer(env: Record<string, string> = {}, options: { shareWith?: TestServer } = {}): Promise<TestServer> {
  // `shareWith`: a second instance on the first one's database (same SQLite directory or
  // PostgreSQL database), left in place when this one closes.
  const shared = options.shareWith?.config;
  const dataDir = shared ? shared.dataDir : mkdtempSync(join(tmpdir(), 'trove-test-'));
  const pg = shared ? (shared.databaseUrl ? { url: shared.databaseUrl, drop: async () => undefined } : null) : testDatabaseUrl ? await freshPostgresDatabase() : null;
  const config = testConfig({ ...env, TROVE_DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '' });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const dataSource = app.get(
    (await import('typeorm')).DataSource,
  );
  return {
    app,
    config,
    baseUrl,
    sdk: new Configuration({ basePath: baseUrl }),
    sql: (query, params) => dataSource.query(query, params),
    counts: async (tables) => {
      const rows = await Promise.all(tables.map((t) => dataSource.query(`SELECT COUNT(*) AS n FROM ${t}`)));
      return rows.map((r, i) => `${tables[i]}=${r[0].n}`).join(' ');
    },
    close: async () => {
      await app.close();
      await pg?.drop();
      if (!shared) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
