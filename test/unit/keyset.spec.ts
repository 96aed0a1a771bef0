import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Database } from '../../src/common/database/database.service';
import { KeysetSource, keysetIdPage, keysetWalk, keysetWalkIds } from '../../src/common/database/keyset';

/**
 * The keyset walks of the listings on a real SQLite file: the id walk (each page's ids as one
 * JSON array built by the database, its last position from the page's least created_at and last
 * id) lists exactly what the row walk lists, in the same order, across pages cut inside runs of
 * equal created_at, whatever characters the ids hold.
 */
describe('keyset walks (SQLite)', () => {
  let dir: string;
  let source: DataSource;
  let db: Database;
  const live: KeysetSource = { table: 'listed', where: 'deleted_at IS NULL' };
  /** Every live id, in the listings' order, read in one statement. */
  let expected: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trove-unit-keyset-'));
    source = new DataSource({
      type: 'sqlite',
      database: join(dir, 'unit.db'),
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      driver: require('sqlite3'),
      enableWAL: true,
      entities: [],
      migrations: [],
    });
    await source.initialize();
    await source.query('CREATE TABLE listed (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, deleted_at TEXT)');
    // 1,237 rows over 40 instants (runs of ~31 equal created_at), every 7th deleted; ids with
    // quotes, backslashes, a newline, a comma and non-ASCII letters among plain UUID-like ones.
    const odd = ['a"quote', 'back\\slash', 'new\nline', 'com,ma', 'ünï-çødé', '[bracket]', "o'clock"];
    const rows = Array.from({ length: 1237 }, (_, i) => ({
      id: i < odd.length ? `${odd[i]}-${i}` : `id-${String((i * 7919) % 100_000).padStart(5, '0')}-${i}`,
      created: new Date(Date.UTC(2025, 0, 1) + (i % 40) * 1000).toISOString(),
      deleted: i % 7 === 3 ? '2025-02-01T00:00:00.000Z' : null,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      await source.query(
        `INSERT INTO listed (id, created_at, deleted_at) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}`,
        part.flatMap((r) => [r.id, r.created, r.deleted]),
      );
    }
    db = new Database(source);
    await db.onModuleInit();
    expected = (
      await source.query('SELECT id FROM listed WHERE deleted_at IS NULL ORDER BY created_at DESC, id DESC')
    ).map((r: { id: string }) => r.id);
  });

  afterAll(async () => {
    db.beforeApplicationShutdown();
    await db.onApplicationShutdown();
    await source.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function collect<T>(pages: AsyncIterable<T[]>): Promise<{ all: T[]; sizes: number[] }> {
    const all: T[] = [];
    const sizes: number[] = [];
    for await (const page of pages) {
      all.push(...page);
      sizes.push(page.length);
    }
    return { all, sizes };
  }

  it.each([1, 13, 100, 1060, 5000])('walks every live id once, in order, %i a page', async (pageSize) => {
    const ids = await collect(keysetWalkIds(db, live, pageSize));
    expect(ids.all).toEqual(expected);
    expect(ids.sizes.every((n, i) => n === pageSize || i === ids.sizes.length - 1)).toBe(true);
    const rows = await collect(keysetWalk(db, live, pageSize));
    expect(rows.all.map((r) => r.id)).toEqual(ids.all);
  });

  it('answers a page and its last position; an empty page has none', async () => {
    const first = await db.read((em) => keysetIdPage(db, em, live, null, 50));
    expect(first.ids).toEqual(expected.slice(0, 50));
    const lastRow = (await source.query('SELECT created_at FROM listed WHERE id = ?', [expected[49]]))[0];
    expect(first.last).toEqual({ createdAt: lastRow.created_at, id: expected[49] });
    const next = await db.read((em) => keysetIdPage(db, em, live, first.last, 50));
    expect(next.ids).toEqual(expected.slice(50, 100));
    const none = await db.read((em) => keysetIdPage(db, em, { table: 'listed', where: '1 = 0' }, null, 50));
    expect(none).toEqual({ ids: [], last: null });
  });
});
