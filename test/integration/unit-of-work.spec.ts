import { InvalidInput } from '../../src/common/errors/domain-errors';
import { CreateAssetCommand } from '../../src/modules/assets/commands/create-asset.command';
import { UpdateAssetCommand } from '../../src/modules/assets/commands/update-asset.command';
import { AssetDto } from '../../src/modules/assets/dto/asset.dto';
import { GetAssetQuery } from '../../src/modules/assets/queries/get-asset.query';
import { AssetWire } from '../../src/modules/assets/wire/asset.wire';
import { validateInput } from '../../src/common/validation/input';
import { seedOf, useTestStore } from './support/store';

const TABLES = ['assets', 'formats', 'tags', 'websites', 'annotations', 'asset_enrichments', 'stream_events'];

/** A use case's writes are one transaction: all of them commit, with the outbox entry, or none does. */
describe('the unit of work', () => {
  const store = useTestStore();
  const get = (id: string): Promise<AssetWire> => store.queries.execute(new GetAssetQuery(id, true));
  const update = async (asset: Record<string, unknown>) =>
    store.commands.execute(new UpdateAssetCommand(await validateInput(AssetDto, asset), true));

  it('a command that fails midway leaves nothing written: no row, no outbox entry', async () => {
    const created = await store.commands.execute(
      new CreateAssetCommand(await seedOf('SELECT 1;', { name: 'kept name', tags: [{ text: 'kept' }] }), true),
    );
    const before = await store.counts(TABLES);
    const rowsBefore = await store.sql(`SELECT * FROM assets WHERE id = '${created.id}'`);
    // The name, the text and the tags are written before the websites, whose URL the writer refuses.
    const failing = update({
      id: created.id,
      name: 'a name that must not stay',
      formats: { iterable: [{ id: created.formats.iterable[0].id, fragment: { string: { raw: 'SELECT 2;' } } }] },
      tags: { iterable: [{ text: 'must-not-stay' }] },
      websites: { iterable: [{ url: 'ftp://example.com/file', name: 'file' }] },
    });
    await expect(failing).rejects.toThrow(InvalidInput);
    await expect(failing).rejects.toThrow(/must be an http\(s\) URL/);
    expect(await store.counts(TABLES)).toBe(before);
    expect(await store.sql(`SELECT * FROM assets WHERE id = '${created.id}'`)).toEqual(rowsBefore);
    const asset = await get(created.id);
    expect(asset.name).toBe('kept name');
    expect(asset.original.reference.fragment?.string?.raw).toBe('SELECT 1;');
    expect(asset.tags.iterable.map((t) => t.text)).toEqual(['kept']);
  });

  it('a command that succeeds commits every write and one outbox entry for the asset', async () => {
    const created = await store.commands.execute(new CreateAssetCommand(await seedOf('SELECT 3;'), true));
    const events = async () =>
      Number(
        (await store.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM stream_events WHERE entity_id = '${created.id}'`))[0]
          .n,
      );
    expect(await events()).toBe(1);
    await update({
      id: created.id,
      name: 'renamed',
      tags: { iterable: [{ text: 'one' }, { text: 'two' }] },
      websites: { iterable: [{ url: 'https://example.com/docs', name: 'docs' }] },
    });
    expect(await events()).toBe(2);
    const asset = await get(created.id);
    expect(asset.name).toBe('renamed');
    expect(asset.tags.iterable.map((t) => t.text)).toEqual(['one', 'two']);
    expect(asset.websites.iterable.map((w) => w.url)).toEqual(['https://example.com/docs']);
  });

  it('a committed write survives a reopen of the store', async () => {
    const created = await store.commands.execute(
      new CreateAssetCommand(
        await seedOf('const durable = true;', {
          name: 'durable',
          tags: [{ text: 'durable-tag' }],
          websites: [{ url: 'https://example.com/durable', name: 'durable site' }],
        }),
        true,
      ),
    );
    const before = await get(created.id);
    await store.reopen();
    const after = await get(created.id);
    expect(after).toEqual(before);
    expect(after.name).toBe('durable');
    expect(after.original.reference.fragment?.string?.raw).toBe('const durable = true;');
    expect(after.tags.iterable.map((t) => t.text)).toEqual(['durable-tag']);
    expect(after.websites.iterable.map((w) => w.url)).toEqual(['https://example.com/durable']);
  });
});
