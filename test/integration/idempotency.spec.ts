import { InvalidInput, Unprocessable } from '../../src/common/errors/domain-errors';
import { CreateAssetCommand } from '../../src/modules/assets/commands/create-asset.command';
import { seedOf, useTestStore } from './support/store';

const TABLES = ['assets', 'formats', 'idempotency_keys', 'stream_events'];

/** CreateAssetCommand with an Idempotency-Key: the key is recorded in the create's transaction. */
describe('idempotent creates', () => {
  const store = useTestStore();
  const create = async (raw: string, key?: string, metadata: Record<string, unknown> = {}) =>
    store.commands.execute(new CreateAssetCommand(await seedOf(raw, metadata), true, key));

  it('a retry with the same key answers the same asset and writes nothing more; another key is another asset', async () => {
    const first = await create('const retried = "once";', 'create-1', { name: 'retried once' });
    const before = await store.counts(TABLES);
    const again = await create('const retried = "once";', 'create-1', { name: 'retried once' });
    expect(again.id).toBe(first.id);
    expect(again.name).toBe('retried once');
    expect(await store.counts(TABLES)).toBe(before);
    const other = await create('const retried = "once";', 'create-2', { name: 'retried once' });
    expect(other.id).not.toBe(first.id);
    const none = await create('const retried = "once";', undefined, { name: 'retried once' });
    expect([first.id, other.id]).not.toContain(none.id);
    // The key is recorded per operation, with the asset it created.
    expect(await store.sql(`SELECT key, resource_id AS "resourceId" FROM idempotency_keys ORDER BY key`)).toEqual([
      { key: 'assets.create:create-1', resourceId: first.id },
      { key: 'assets.create:create-2', resourceId: other.id },
    ]);
  });

  it('concurrent creates with one key make exactly one asset', async () => {
    const seed = await seedOf('const raced = true;');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => store.commands.execute(new CreateAssetCommand(seed, true, 'raced-key'))),
    );
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    const rows = await store.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM formats WHERE raw = 'const raced = true;'`);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('the same key with another body is refused (Unprocessable), a malformed key too (InvalidInput); neither writes', async () => {
    await create('first body', 'reused-key');
    const before = await store.counts(TABLES);
    await expect(create('second body', 'reused-key')).rejects.toThrow(Unprocessable);
    await expect(create('second body', 'reused-key')).rejects.toThrow(/different request/);
    await expect(create('x', 'has space')).rejects.toThrow(InvalidInput);
    await expect(create('x', 'k'.repeat(256))).rejects.toThrow(/Idempotency-Key/);
    expect(await store.counts(TABLES)).toBe(before);
  });

  it('a key survives a reopen of the store: the retry after a restart still answers the first asset', async () => {
    const first = await create('print("before the restart")', 'across-restart');
    await store.reopen();
    const again = await create('print("before the restart")', 'across-restart');
    expect(again.id).toBe(first.id);
    const rows = await store.sql<{ n: number }>(
      `SELECT COUNT(*) AS n FROM formats WHERE raw = 'print("before the restart")'`,
    );
    expect(Number(rows[0].n)).toBe(1);
  });
});
