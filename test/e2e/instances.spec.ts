import { AssetsApi } from '@pieces.app/pieces-os-client';
import { Client } from 'pg';
import { textSeed } from './support/seeds';
import { testConfig, testDatabaseUrl, useTestServer } from './support/server';
import { createApp } from '../../src/bootstrap';

/**
 * Several instances on one database. On PostgreSQL (npm run test:pg) three extra instances
 * boot at once (their migrations take turns on an advisory lock); on SQLite a second process
 * opens the same file.
 */
describe('several instances on one database', () => {
  const first = useTestServer();

  it('boots more instances at once against the same database and they share data', async () => {
    const url = first.config.databaseUrl;
    const env = { DATABASE_URL: url ?? '', TROVE_DATA_DIR: first.config.dataDir };
    const apps = await Promise.all(
      (url ? [0, 1, 2] : [0]).map(async () => {
        const app = await createApp(testConfig({ ...env, TROVE_LOG_LEVEL: 'error' }));
        await app.listen(0, '127.0.0.1');
        return app;
      }),
    );
    try {
      const created = await new AssetsApi(first.sdk).assetsCreateNewAsset({
        seed: textSeed('shared across instances'),
      });
      for (const app of apps) {
        const { port } = app.getHttpServer().address() as { port: number };
        const res = await fetch(`http://127.0.0.1:${port}/asset/${created.id}`);
        expect(res.status).toBe(200);
        expect((await res.json()).formats.iterable[0].fragment.string.raw).toBe('shared across instances');
      }
      const names = (await first.sql<{ name: string }>('SELECT name FROM migrations')).map((r) => r.name);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names).size).toBe(names.length);
      if (url) {
        // The lock is released: another session can take it at once.
        const client = new Client({ connectionString: url });
        await client.connect();
        const lock = await client.query('SELECT pg_try_advisory_lock($1) AS ok', [0x74726f7665]);
        await client.end();
        expect(lock.rows[0].ok).toBe(true);
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  // PostgreSQL only: on SQLite there is no LISTEN connection to lose.
  if (testDatabaseUrl) {
    it('instances of one process share one LISTEN connection, which comes back when lost and is not opened again once they have closed', async () => {
      // A URL of its own (its application_name), so that the first instance's connection is not this one.
      const url = `${first.config.databaseUrl!}${first.config.databaseUrl!.includes('?') ? '&' : '?'}application_name=trove-listen-test`;
      const admin = new Client({ connectionString: url });
      await admin.connect();
      const listening = async () =>
        (
          await admin.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'trove-listen-test' AND query LIKE 'LISTEN %'",
          )
        ).rows.map((r) => r.pid);
      const until = async (want: number) => {
        const deadline = Date.now() + 5_000;
        while ((await listening()).length !== want && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        return listening();
      };
      try {
        const config = () =>
          testConfig({ DATABASE_URL: url, TROVE_DATA_DIR: first.config.dataDir, TROVE_LOG_LEVEL: 'error' });
        const apps = [await createApp(config()), await createApp(config())];
        for (const app of apps) await app.listen(0, '127.0.0.1');
        // Two instances, each with its change streams and MCP sessions listening: one connection.
        const own = await until(1);
        expect(own).toHaveLength(1);
        // It drops (PostgreSQL restarted, a failover): a second later it listens again.
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [own]);
        const back = await until(1);
        expect(back).toHaveLength(1);
        expect(back).not.toEqual(own);
        // It drops again, and the instances shut down while it waits to reconnect.
        await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [back]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await Promise.all(apps.map((app) => app.close()));
        // Past the reconnection delay (1 s): nothing of the closed instances listens again.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(await listening()).toEqual([]);
      } finally {
        await admin.end();
      }
    });
  }
});
