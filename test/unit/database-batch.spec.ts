import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { Database } from '../../src/common/database/database.service';

/**
 * The write path of SQLite (Database.transaction): units of work queued while a COMMIT is in
 * flight commit together; a unit that fails is rejected alone and the others run again, each
 * in a savepoint; a broken storage fails the whole batch. On a real file, with no app around it.
 */
describe('Database.transaction on SQLite (group commit)', () => {
  let dir: string;
  let source: DataSource;
  let db: Database;
  /** Every statement Database ran through `query` (BEGIN, SAVEPOINT, COMMIT, the units' own). */
  let statements: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trove-unit-db-'));
    source = new DataSource({
      type: 'sqlite',
      database: join(dir, 'unit.db'),
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      driver: require('sqlite3'),
      enableWAL: true,
      busyTimeout: 5000,
      entities: [],
      migrations: [],
    });
    await source.initialize();
    await source.query('CREATE TABLE items (name TEXT PRIMARY KEY)');
    await source.query('CREATE TABLE steps (n INTEGER PRIMARY KEY AUTOINCREMENT)');
    db = new Database(source);
    await db.onModuleInit();
    statements = [];
    const query = db.query.bind(db);
    db.query = ((em: EntityManager, sql: string, params?: unknown[]) => {
      statements.push(sql);
      return query(em, sql, params);
    }) as Database['query'];
  });

  afterEach(async () => {
    db.beforeApplicationShutdown();
    await db.onApplicationShutdown();
    await source.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (em: EntityManager, name: string) => db.query(em, 'INSERT INTO items (name) VALUES (?1)', [name]);
  const committed = async () =>
    (await source.query('SELECT name FROM items ORDER BY name')).map((r: { name: string }) => r.name);
  const count = (sql: string) => statements.filter((s) => s === sql).length;

  /** Holds the write connection in a first batch until `release`, so that the next units queue up together. */
  function holdBatch(): { done: Promise<unknown>; release: () => void } {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    return { done: db.transaction(async (em) => (await insert(em, 'held'), await gate)), release };
  }

  it('commits the units queued during a COMMIT together, and acknowledges each once its rows are readable', async () => {
    const held = holdBatch();
    const units = ['a', 'b', 'c'].map((name) => db.transaction(async (em) => (await insert(em, name), name)));
    held.release();
    await held.done;
    const values = await Promise.all(
      units.map((unit) =>
        unit.then(async (value) => ({ value, seen: await db.read((em) => em.query('SELECT name FROM items')) })),
      ),
    );
    expect(values.map((v) => v.value)).toEqual(['a', 'b', 'c']);
    // The reading connection (query_only, WAL) sees them as soon as they are acknowledged.
    for (const v of values) expect(v.seen.map((r: { name: string }) => r.name).sort()).toEqual(['a', 'b', 'c', 'held']);
    expect(count('BEGIN IMMEDIATE')).toBe(2);
    expect(count('COMMIT')).toBe(2);
    expect(count('SAVEPOINT unit')).toBe(0);
  });

  it('lets readers see nothing of a batch before its COMMIT', async () => {
    const held = holdBatch();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await db.read((em) => em.query('SELECT name FROM items'))).toEqual([]);
    held.release();
    await held.done;
    expect(await db.read((em) => em.query('SELECT name FROM items'))).toEqual([{ name: 'held' }]);
  });

  it.each([false, true])(
    'rejects a failing unit alone; the others run again in savepoints and commit (independent: %s)',
    async (independent) => {
      const runs = { a: 0, c: 0 };
      const held = holdBatch();
      const a = db.transaction(async (em) => (runs.a++, await insert(em, 'a'), 'a'), { independent });
      const b = db.transaction(async (em) => (await insert(em, 'b'), await insert(em, 'held'), 'b'), { independent }); // a constraint error
      const c = db.transaction(async (em) => (runs.c++, await insert(em, 'c'), 'c'), { independent });
      held.release();
      await held.done;
      const [ra, rb, rc] = await Promise.allSettled([a, b, c]);
      expect(ra).toEqual({ status: 'fulfilled', value: 'a' });
      expect(rb.status === 'rejected' && String(rb.reason)).toMatch(/SQLITE_CONSTRAINT/);
      expect(rc).toEqual({ status: 'fulfilled', value: 'c' });
      expect(await committed()).toEqual(['a', 'c', 'held']);
      // The batch was rolled back (the b row with it) and a and c ran again, one savepoint each.
      expect(count('ROLLBACK')).toBe(1);
      expect(runs.a).toBe(2);
      expect(runs.c).toBe(independent ? 2 : 1); // not independent: c had not started when b failed
      expect(count('SAVEPOINT unit')).toBe(2);
      expect(count('RELEASE unit')).toBe(2);
    },
  );

  it('in the savepoint round, a unit that fails is rolled back to its savepoint and rejected alone', async () => {
    let runs = 0;
    const held = holdBatch();
    // Succeeds the first time, fails when run again after the batch's rollback.
    const flaky = db.transaction(async (em) => {
      await insert(em, `flaky-${++runs}`);
      if (runs === 2) throw new Error('second run fails');
    });
    const failing = db.transaction(async () => {
      throw new Error('first batch fails');
    });
    const other = db.transaction(async (em) => insert(em, 'other'));
    held.release();
    await held.done;
    const settled = await Promise.allSettled([failing, flaky, other]);
    expect(settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok'))).toEqual([
      'Error: first batch fails',
      'Error: second run fails',
      'ok',
    ]);
    expect(await committed()).toEqual(['held', 'other']);
    expect(count('ROLLBACK TO unit')).toBe(1);
  });

  it('fails the whole batch on a storage error: every unit rejected, nothing committed, nothing run again', async () => {
    const full = Object.assign(new Error('SQLITE_FULL: database or disk is full'), { code: 'SQLITE_FULL' });
    let runs = 0;
    const held = holdBatch();
    const a = db.transaction(async (em) => (runs++, await insert(em, 'a')));
    const b = db.transaction(async (em) => {
      await insert(em, 'b');
      throw full;
    });
    const c = db.transaction(async (em) => insert(em, 'c'));
    held.release();
    await held.done;
    expect(await Promise.allSettled([a, b, c])).toEqual([0, 1, 2].map(() => ({ status: 'rejected', reason: full })));
    expect(runs).toBe(1);
    expect(await committed()).toEqual(['held']);
    expect(count('SAVEPOINT unit')).toBe(0);
    // The connection is usable again.
    await db.transaction((em) => insert(em, 'after'));
    expect(await committed()).toEqual(['after', 'held']);
  });

  it('runs a before-commit step once per batch, however many units register it; a failing step fails the batch', async () => {
    const step = 'INSERT INTO steps DEFAULT VALUES';
    const held = holdBatch();
    const units = ['a', 'b', 'c'].map((name) =>
      db.transaction(async (em) => {
        db.beforeCommit(step);
        await insert(em, name);
      }),
    );
    held.release();
    await Promise.all([held.done, ...units]);
    expect(await source.query('SELECT COUNT(*) AS n FROM steps')).toEqual([{ n: 1 }]);

    const failing = db.transaction(async (em) => {
      db.beforeCommit("INSERT INTO steps (n) VALUES ('not an integer')");
      await insert(em, 'd');
    });
    await expect(failing).rejects.toThrow(/SQLITE_MISMATCH/);
    expect(await source.query('SELECT COUNT(*) AS n FROM steps')).toEqual([{ n: 1 }]);
    expect(await committed()).toEqual(['a', 'b', 'c', 'held']);
    // Steps belong to one batch: the next one does not run the failed step again.
    await db.transaction((em) => insert(em, 'e'));
    expect(await committed()).toEqual(['a', 'b', 'c', 'e', 'held']);
  });

  it('commits at most 64 units per batch', async () => {
    const held = holdBatch();
    const units = Array.from({ length: 100 }, (_, i) =>
      db.transaction((em) => insert(em, `u${i}`), { independent: true }),
    );
    held.release();
    await Promise.all([held.done, ...units]);
    expect((await committed()).length).toBe(101);
    expect(count('COMMIT')).toBe(3); // the held batch, 64, 36
  });
});
