import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'sqlite3';
import { textSeed } from '../e2e/support/seeds';
import { TestServer, startTestServer } from '../e2e/support/server';
import pkg from '../../package.json';

/**
 * Durability of the embedded store: the server (built as `npm start` runs it) is SIGKILLed at
 * random moments while clients create and update assets; after each restart every write it
 * acknowledged must be there, intact, and retries with the same Idempotency-Key must not
 * duplicate what it committed without answering.
 */
const ROOT = join(__dirname, '..', '..');
const KILLS = Number(process.env.CRASH_KILLS ?? 30);
const CLIENTS = 4;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Expected {
  raw: string;
  /** The name of the last acknowledged update (or of the create). */
  name: string;
  /** Names of updates sent but not acknowledged: any of them may have committed. */
  maybe: Set<string>;
}

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

describe('crash safety (SIGKILL at random moments)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-crash-'));
  let port: number;
  let base: string;
  let child: ChildProcess | null = null;

  beforeAll(() => {
    execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }, 180_000);
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startServer(): Promise<number> {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    child = spawn(process.execPath, pkg.scripts.start.split(' ').slice(1), {
      // as npm start runs it
      cwd: ROOT,
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        TROVE_PORT_FILE: 'off',
        PORT: String(port),
        TROVE_DATA_DIR: dataDir,
        TROVE_RATE_LIMIT: '0',
        TROVE_LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    for (;;) {
      try {
        if ((await fetch(`${base}/.well-known/health`)).ok) return Date.now() - started;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > 30_000) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it(`keeps every acknowledged write across ${KILLS} kills, without duplicates`, async () => {
    const expected = new Map<string, Expected>();
    /** Creates sent but not answered: retried with the same key after the restart. */
    const unanswered = new Map<string, { key: string; raw: string }>();
    let acknowledged = 0;
    let sequence = 0;
    const startups: number[] = [];

    const client = async (stop: () => boolean): Promise<void> => {
      while (!stop()) {
        const ids = [...expected.keys()];
        if (ids.length && Math.random() < 0.3) {
          const id = ids[Math.floor(Math.random() * ids.length)];
          const entry = expected.get(id)!;
          const name = `renamed ${sequence++}`;
          entry.maybe.add(name);
          try {
            const snapshot = await (await fetch(`${base}/asset/${id}`)).json();
            await post(base, '/asset/update', { ...snapshot, name });
            entry.name = name;
            entry.maybe.clear();
            acknowledged++;
          } catch {
            return; // the server died: this name may or may not have committed
          }
        } else {
          const key = randomUUID();
          const raw = `const crash_${sequence++} = ${JSON.stringify(randomUUID())};`;
          unanswered.set(key, { key, raw });
          try {
            const asset = await post(base, '/assets/create', textSeed(raw, { name: raw.slice(0, 20) }), {
              'idempotency-key': key,
            });
            unanswered.delete(key);
            expected.set(asset.id, { raw, name: raw.slice(0, 20), maybe: new Set() });
            acknowledged++;
          } catch {
            return;
          }
        }
      }
    };

    /** Retries what was unanswered with the same keys: committed ones come back, the rest are created now. */
    const retryUnanswered = async (): Promise<void> => {
      for (const { key, raw } of [...unanswered.values()]) {
        const asset = await post(base, '/assets/create', textSeed(raw, { name: raw.slice(0, 20) }), {
          'idempotency-key': key,
        });
        unanswered.delete(key);
        expected.set(asset.id, { raw, name: raw.slice(0, 20), maybe: new Set() });
      }
    };

    for (let round = 0; round < KILLS; round++) {
      startups.push(await startServer());
      await retryUnanswered();
      let dead = false;
      const clients = Array.from({ length: CLIENTS }, () => client(() => dead));
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
      child!.kill('SIGKILL');
      dead = true;
      await new Promise((r) => child!.once('exit', r));
      await Promise.all(clients);
    }

    startups.push(await startServer());
    await retryUnanswered();
    for (const [id, entry] of expected) {
      const res = await fetch(`${base}/asset/${id}?transferables=true`);
      expect(res.status).toBe(200);
      const asset = await res.json();
      expect(asset.formats.iterable[0].fragment.string.raw).toBe(entry.raw);
      expect([entry.name, ...entry.maybe]).toContain(asset.name);
    }
    // Each snippet exists once: no retry duplicated a create that committed without an answer.
    const identifiers = await (await fetch(`${base}/assets/identifiers`)).json();
    const unexpected = identifiers.iterable.map((i: { id: string }) => i.id).filter((id: string) => !expected.has(id));
    const extras = await Promise.all(
      unexpected.map(
        async (id: string) =>
          (await (await fetch(`${base}/asset/${id}?transferables=true`)).json()).formats.iterable[0].fragment.string
            .raw,
      ),
    );
    expect(extras).toEqual([]);
    expect(identifiers.iterable.length).toBe(expected.size);
    child!.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    child = null;

    const db = new Database(join(dataDir, 'trove.db'));
    const all = <T>(sql: string) =>
      new Promise<T[]>((resolve, reject) =>
        db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as T[]))),
      );
    const [check] = await all<Record<string, string>>('PRAGMA integrity_check');
    // The change-stream outbox: ids without a gap, and an event for every asset that exists.
    const [outbox] = await all<{ n: number; low: number; high: number }>(
      'SELECT COUNT(*) AS n, MIN(id) AS low, MAX(id) AS high FROM stream_events',
    );
    const announced = new Set(
      (await all<{ id: string }>(`SELECT DISTINCT entity_id AS id FROM stream_events WHERE topic = 'assets'`)).map(
        (r) => r.id,
      ),
    );
    await new Promise((r) => db.close(r));
    expect(Object.values(check)[0]).toBe('ok');
    expect(outbox.n).toBe(outbox.high - outbox.low + 1);
    expect([...expected.keys()].filter((id) => !announced.has(id))).toEqual([]);
    expect(acknowledged).toBeGreaterThan(KILLS);
    console.log(
      `crash test: ${KILLS} kills, ${acknowledged} acknowledged writes, ${expected.size} assets, startup median ${startups.sort((a, b) => a - b)[startups.length >> 1]} ms`,
    );
  }, 600_000);
});

describe('storage failures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('a full disk answers 503 + Retry-After and acknowledges nothing; writes resume when space returns', async () => {
    const [{ page_count: pages }] = await server.sql<{ page_count: number }>('PRAGMA page_count');
    await server.sql(`PRAGMA max_page_count = ${pages}`); // SQLite sees the disk as full (SQLITE_FULL)
    const before = await server.counts(['assets', 'formats']);
    try {
      const res = await fetch(`${server.baseUrl}/assets/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(textSeed('z'.repeat(200_000))),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect((await res.json()).message).toMatch(/storage is unavailable; nothing was written/);
    } finally {
      await server.sql('PRAGMA max_page_count = 1073741823');
    }
    expect(await server.counts(['assets', 'formats'])).toBe(before);
    const ok = await fetch(`${server.baseUrl}/assets/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(textSeed('fits again')),
    });
    expect(ok.status).toBe(200);
  });
});
