import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Column, DataSource, Entity, Logger as TypeOrmLogger, PrimaryColumn, QueryRunner } from 'typeorm';
import {
  SqliteConnection,
  SqliteStatement,
  checkSqliteInternals,
  markRunnerTransaction,
  openSqlite,
  rawConnection,
  sqliteDriver,
} from '../../src/common/database/sqlite-driver';

/**
 * Contract of src/common/database/sqlite-driver.ts: what it relies on in TypeORM's SQLite
 * driver and node-sqlite3, checked against the installed versions on a real DataSource (in
 * memory). A failure here after an upgrade names the property that changed: fix the adapter
 * (or drop its shortcut), not its callers.
 */

@Entity('contract_items')
class Item {
  @PrimaryColumn()
  name: string;

  @Column({ default: 0 })
  count: number;
}

/** Every statement TypeORM runs through its query runner (the ones prepared on the raw connection bypass it). */
class Capture implements TypeOrmLogger {
  readonly queries: string[] = [];
  logQuery(query: string): void {
    this.queries.push(query);
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

type Sqlite3 = typeof import('sqlite3');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sqlite3: Sqlite3 = require('sqlite3');

/** The methods node-sqlite3's verbose() wraps to capture a stack on every call. */
const TRACED = {
  Database: ['prepare', 'get', 'run', 'all', 'each', 'map', 'close', 'exec'],
  Statement: ['bind', 'get', 'run', 'all', 'each', 'map', 'reset', 'finalize'],
} as const;

function tracedMethods(module: Sqlite3): Map<string, unknown> {
  const methods = new Map<string, unknown>();
  for (const name of TRACED.Database)
    methods.set(`Database#${name}`, (module.Database.prototype as unknown as Record<string, unknown>)[name]);
  for (const name of TRACED.Statement)
    methods.set(`Statement#${name}`, (module.Statement.prototype as unknown as Record<string, unknown>)[name]);
  return methods;
}

const all = (statement: SqliteStatement, params: unknown[] = []) =>
  new Promise<unknown[]>((resolve, reject) =>
    statement.all(params, (error, rows) => (error ? reject(error) : resolve(rows))),
  );
/** What TypeORM issued to manage transactions. */
const transactionStatements = (queries: string[]) =>
  queries.filter((q) => /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(q.trim()));

describe('contract: sqlite-driver.ts (TypeORM SQLite driver + node-sqlite3)', () => {
  let methodsBefore: Map<string, unknown>;
  let capture: Capture;
  let source: DataSource;
  let runner: QueryRunner;
  const statements: SqliteStatement[] = [];
  const prepare = (sql: string) => {
    const statement = rawConnection(source).prepare(sql);
    statements.push(statement);
    return statement;
  };

  beforeAll(async () => {
    methodsBefore = tracedMethods(sqlite3);
    capture = new Capture();
    source = new DataSource({
      type: 'sqlite',
      database: ':memory:',
      driver: sqliteDriver,
      entities: [Item],
      synchronize: true,
      logger: capture,
    });
    await source.initialize();
    runner = source.createQueryRunner();
  });

  afterAll(async () => {
    markRunnerTransaction(runner, false);
    for (const statement of statements.splice(0)) statement.finalize();
    if (source.isInitialized) await source.destroy();
  });

  beforeEach(async () => {
    markRunnerTransaction(runner, false);
    await source.query('DELETE FROM contract_items');
    capture.queries.length = 0;
  });

  describe('rawConnection', () => {
    it("is the node-sqlite3 Database that TypeORM's query runner runs its statements on (SqliteDriver#databaseConnection)", async () => {
      const connection = rawConnection(source);
      expect(connection).toBeInstanceOf(sqlite3.Database);
      expect(await runner.connect()).toBe(connection);
      // On SQLite TypeORM shares one runner; Database marks the one its write batches use.
      expect(source.createQueryRunner()).toBe(runner);
    });

    it('prepares statements whose all(params, callback) binds ?1..?n positionally and calls back with the rows as objects, again on reuse', async () => {
      const statement = prepare('SELECT ?1 AS a, ?2 AS b');
      expect(await all(statement, [1, 'x'])).toEqual([{ a: 1, b: 'x' }]);
      expect(await all(statement, [2, 'y'])).toEqual([{ a: 2, b: 'y' }]);
      expect(await all(prepare('SELECT 1 AS one WHERE 0'))).toEqual([]);
    });

    it("reports a failing statement through all's callback with SQLite's code and message (a unit's failure, isStorageUnavailable)", async () => {
      const insert = prepare('INSERT INTO contract_items (name, count) VALUES (?1, 0)');
      await all(insert, ['same']);
      const error = await all(insert, ['same']).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      expect(error).not.toBeNull();
      expect(error!.code).toBe('SQLITE_CONSTRAINT');
      expect(error!.message).toMatch(/UNIQUE constraint failed/);
    });

    it("runs in TypeORM's session: a prepared BEGIN holds what em.save writes through the marked runner until a prepared ROLLBACK", async () => {
      await all(prepare('BEGIN IMMEDIATE'));
      markRunnerTransaction(runner, true);
      await runner.manager.save(Item, { name: 'inside', count: 1 });
      expect(await all(prepare('SELECT name FROM contract_items'))).toEqual([{ name: 'inside' }]);
      await all(prepare('ROLLBACK'));
      markRunnerTransaction(runner, false);
      expect(await source.query('SELECT name FROM contract_items')).toEqual([]);
    });

    it('lets the connection close once its statements are finalized (Database.beforeApplicationShutdown)', async () => {
      const other = new DataSource({ type: 'sqlite', database: ':memory:', driver: sqliteDriver });
      await other.initialize();
      const statement = rawConnection(other).prepare('SELECT 1 AS one');
      expect(await all(statement)).toEqual([{ one: 1 }]);
      statement.finalize();
      await expect(other.destroy()).resolves.toBeUndefined();
    });
  });

  describe('markRunnerTransaction', () => {
    it('unmarked: em.save starts and commits a transaction of its own (what marking prevents)', async () => {
      await runner.manager.save(Item, { name: 'alone', count: 1 });
      expect(transactionStatements(capture.queries)).toEqual(['BEGIN TRANSACTION', 'COMMIT']);
    });

    it('marked: em.save (insert and update) issues no BEGIN, SAVEPOINT, COMMIT or RELEASE (TypeORM reads isTransactionActive)', async () => {
      await all(prepare('BEGIN IMMEDIATE'));
      markRunnerTransaction(runner, true);
      expect(runner.isTransactionActive).toBe(true);
      await runner.manager.save(Item, { name: 'batched', count: 1 });
      await runner.manager.save(Item, { name: 'batched', count: 2 });
      expect(capture.queries.length).toBeGreaterThan(0);
      expect(transactionStatements(capture.queries)).toEqual([]);
      await all(prepare('COMMIT'));
      markRunnerTransaction(runner, false);
      expect(runner.isTransactionActive).toBe(false);
      expect(await source.query('SELECT name, count FROM contract_items')).toEqual([{ name: 'batched', count: 2 }]);
    });

    it('marked: startTransaction opens a SAVEPOINT, not a second BEGIN (TypeORM reads transactionDepth); unmarked: BEGIN again', async () => {
      await all(prepare('BEGIN IMMEDIATE'));
      markRunnerTransaction(runner, true);
      await runner.startTransaction();
      await runner.commitTransaction();
      expect(transactionStatements(capture.queries)).toEqual(['SAVEPOINT typeorm_1', 'RELEASE SAVEPOINT typeorm_1']);
      expect(runner.isTransactionActive).toBe(true);
      await all(prepare('COMMIT'));
      markRunnerTransaction(runner, false);
      capture.queries.length = 0;
      await runner.startTransaction();
      await runner.commitTransaction();
      expect(transactionStatements(capture.queries)).toEqual(['BEGIN TRANSACTION', 'COMMIT']);
    });

    it('checkSqliteInternals accepts the initialized DataSource and names what is missing otherwise', async () => {
      expect(() => checkSqliteInternals(source)).not.toThrow();
      const closed = new DataSource({ type: 'sqlite', database: ':memory:', driver: sqliteDriver });
      expect(() => checkSqliteInternals(closed)).toThrow(/databaseConnection/);
    });
  });

  describe('sqliteDriver (node-sqlite3 without verbose tracing)', () => {
    it('TypeORM calls verbose() on the driver module it is given and opens its connections with what that returns', async () => {
      const opened: string[] = [];
      const returned = Object.assign(Object.create(sqlite3) as Sqlite3, {
        Database: function (this: unknown, ...args: unknown[]) {
          opened.push(args[0] as string);
          return new (sqlite3.Database as unknown as new (...a: unknown[]) => unknown)(...args);
        },
      });
      const given = Object.assign(Object.create(sqlite3) as Sqlite3, { verbose: () => returned });
      const spied = new DataSource({ type: 'sqlite', database: ':memory:', driver: given });
      await spied.initialize();
      try {
        expect(opened).toEqual([':memory:']);
      } finally {
        await spied.destroy();
      }
    });

    it('verbose() returns sqliteDriver itself and wraps no Database or Statement method, while statements keep working', async () => {
      expect(sqliteDriver.verbose()).toBe(sqliteDriver);
      expect(sqliteDriver.Database).toBe(sqlite3.Database);
      // TypeORM has called verbose() on it (beforeAll) and statements ran: no method was wrapped since.
      const now = tracedMethods(sqlite3);
      expect([...methodsBefore.keys()].filter((name) => now.get(name) !== methodsBefore.get(name))).toEqual([]);
      await expect(source.query('SELECT nonsense FROM nowhere')).rejects.toThrow(/no such table: nowhere/);
    });

    it("node-sqlite3's own verbose() does wrap those methods and adds a captured stack to errors (what sqliteDriver avoids; run in a child process)", () => {
      const script = `
        const sqlite3 = require('sqlite3');
        const names = ${JSON.stringify(TRACED)};
        const before = names.Statement.map((n) => sqlite3.Statement.prototype[n]).concat(names.Database.map((n) => sqlite3.Database.prototype[n]));
        sqlite3.verbose();
        const after = names.Statement.map((n) => sqlite3.Statement.prototype[n]).concat(names.Database.map((n) => sqlite3.Database.prototype[n]));
        const db = new sqlite3.Database(':memory:');
        db.all('SELECT nonsense FROM nowhere', (error) => {
          process.stdout.write(JSON.stringify({ wrapped: after.filter((m, i) => m !== before[i]).length, of: after.length, traced: /--> in Database#all/.test(error.stack) }));
          db.close(() => undefined);
        });`;
      const result = JSON.parse(
        execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }),
      );
      expect(result).toEqual({ wrapped: result.of, of: 16, traced: true });
    });
  });

  describe('openSqlite (WalCheckpointer)', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'trove-contract-sqlite-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('opens a connection of its own to a WAL database whose all(sql, callback) runs a PASSIVE checkpoint and which closes', async () => {
      const file = join(dir, 'wal.db');
      const writer = new DataSource({ type: 'sqlite', database: file, driver: sqliteDriver, enableWAL: true });
      await writer.initialize();
      let connection: SqliteConnection | null = null;
      try {
        await writer.query('CREATE TABLE t (x INTEGER)');
        await writer.query('INSERT INTO t VALUES (1)');
        connection = await openSqlite(file);
        const rows = await new Promise<unknown[]>((resolve, reject) =>
          connection!.all('PRAGMA wal_checkpoint(PASSIVE)', (error, result) =>
            error ? reject(error) : resolve(result),
          ),
        );
        expect(rows).toEqual([{ busy: 0, log: expect.any(Number), checkpointed: expect.any(Number) }]);
        await new Promise<void>((resolve, reject) => connection!.close((error) => (error ? reject(error) : resolve())));
        connection = null;
      } finally {
        connection?.close(() => undefined);
        await writer.destroy();
      }
    });

    it('rejects when the file cannot be opened', async () => {
      await expect(openSqlite(join(dir, 'missing', 'deeper', 'x.db'))).rejects.toThrow(/SQLITE_CANTOPEN/);
    });
  });
});
