import { Gone, NotFound } from '../../src/common/errors/domain-errors';
import { ChangeAssetLinkCommand } from '../../src/modules/assets/commands/change-asset-link.command';
import { CreateAssetCommand } from '../../src/modules/assets/commands/create-asset.command';
import { CreateLinkRecordCommand } from '../../src/modules/assets/commands/create-link-record.command';
import { DeleteAssetCommand } from '../../src/modules/assets/commands/delete-asset.command';
import { DeleteLinkRecordCommand } from '../../src/modules/assets/commands/delete-link-record.command';
import { SeededTagDto, SeededWebsiteDto } from '../../src/modules/assets/dto/records.dto';
import { GetAssetQuery } from '../../src/modules/assets/queries/get-asset.query';
import { GetLinkRecordQuery } from '../../src/modules/assets/queries/get-link-record.query';
import { AssetWire } from '../../src/modules/assets/wire/asset.wire';
import { TagRecordWire, WebsiteRecordWire } from '../../src/modules/assets/wire/records.wire';
import { validateInput } from '../../src/common/validation/input';
import { seedOf, useTestStore } from './support/store';

/**
 * Associating and disassociating an asset and a tag or a website through the commands: one join
 * row each way, both records' reads agree, the asset announced once per real change, and
 * linking twice (or unlinking what is not linked) changes nothing.
 */
describe('link changes', () => {
  const store = useTestStore();
  const asset = async (raw: string) =>
    store.commands.execute(new CreateAssetCommand(await seedOf(raw, { name: raw, tags: [{ text: 'seeded' }] }), true));
  const get = (id: string): Promise<AssetWire> => store.queries.execute(new GetAssetQuery(id, true));
  const tag = async (text: string, assetId?: string) =>
    (await store.commands.execute(
      new CreateLinkRecordCommand(
        'tag',
        await validateInput(SeededTagDto, { text, ...(assetId ? { asset: assetId } : {}) }),
      ),
    )) as TagRecordWire;
  const website = async (url: string, assetId?: string) =>
    (await store.commands.execute(
      new CreateLinkRecordCommand(
        'website',
        await validateInput(SeededWebsiteDto, { url, name: 'site', ...(assetId ? { asset: assetId } : {}) }),
      ),
    )) as WebsiteRecordWire;
  const link = (assetId: string, kind: 'tag' | 'website', targetId: string, linked: boolean) =>
    store.commands.execute(new ChangeAssetLinkCommand(assetId, kind, targetId, linked));
  const events = async (id: string) =>
    Number((await store.sql<{ n: number }>(`SELECT COUNT(*) AS n FROM stream_events WHERE entity_id = '${id}'`))[0].n);
  const tagsOf = async (id: string) => (await get(id)).tags.iterable.map((t) => t.text);
  const assetsOfTag = async (id: string) =>
    ((await store.queries.execute(new GetLinkRecordQuery('tag', id))) as TagRecordWire).assets.iterable.map(
      (a) => a.id,
    );

  it('a tag linked and unlinked: both sides agree, each real change announced once, repeats change nothing', async () => {
    const a = await asset('const linked = 1;');
    const t = await tag('shared');
    expect(t.assets.iterable).toEqual([]);
    const announced = await events(a.id);

    await link(a.id, 'tag', t.id, true);
    expect(await tagsOf(a.id)).toEqual(['seeded', 'shared']);
    expect(await assetsOfTag(t.id)).toEqual([a.id]);
    expect(await events(a.id)).toBe(announced + 1);

    await link(a.id, 'tag', t.id, true);
    expect(await tagsOf(a.id)).toEqual(['seeded', 'shared']);
    expect(await events(a.id)).toBe(announced + 1);

    await link(a.id, 'tag', t.id, false);
    expect(await tagsOf(a.id)).toEqual(['seeded']);
    expect(await assetsOfTag(t.id)).toEqual([]);
    expect(await events(a.id)).toBe(announced + 2);

    await link(a.id, 'tag', t.id, false);
    expect(await events(a.id)).toBe(announced + 2);
  });

  it('a tag seeded with an asset is linked to it; a second seed of the same text answers the same tag', async () => {
    const a = await asset('const seeded = 2;');
    const b = await asset('const seeded = 3;');
    const first = await tag('one-record', a.id);
    const second = await tag('one-record', b.id);
    expect(second.id).toBe(first.id);
    expect((await assetsOfTag(first.id)).sort()).toEqual([a.id, b.id].sort());
    expect(await tagsOf(b.id)).toContain('one-record');
  });

  it('a website linked to an asset shows on it; deleting the website unlinks it from every asset', async () => {
    const a = await asset('const site = 4;');
    const b = await asset('const site = 5;');
    const w = await website('https://example.com/linked', a.id);
    await link(b.id, 'website', w.id, true);
    expect((await get(a.id)).websites.iterable.map((x) => x.url)).toEqual(['https://example.com/linked']);
    expect((await get(b.id)).websites.iterable.map((x) => x.id)).toEqual([w.id]);
    const announced = [await events(a.id), await events(b.id)];

    await store.commands.execute(new DeleteLinkRecordCommand('website', w.id));
    expect((await get(a.id)).websites.iterable).toEqual([]);
    expect((await get(b.id)).websites.iterable).toEqual([]);
    expect([await events(a.id), await events(b.id)]).toEqual([announced[0] + 1, announced[1] + 1]);
    await expect(store.queries.execute(new GetLinkRecordQuery('website', w.id))).rejects.toThrow(NotFound);
  });

  it('an unknown target is NotFound, a deleted asset Gone; neither writes', async () => {
    const a = await asset('const refused = 6;');
    const t = await tag('refused-tag');
    const tables = ['asset_tags', 'asset_websites', 'stream_events'];
    const before = await store.counts(tables);
    await expect(link(a.id, 'tag', '00000000-0000-4000-8000-000000000000', true)).rejects.toThrow(NotFound);
    await expect(link(a.id, 'website', t.id, true)).rejects.toThrow(NotFound);
    expect(await store.counts(tables)).toBe(before);

    await store.commands.execute(new DeleteAssetCommand(a.id));
    const afterDelete = await store.counts(tables);
    await expect(link(a.id, 'tag', t.id, true)).rejects.toThrow(Gone);
    await expect(tag('refused-tag', a.id)).rejects.toThrow(Gone);
    expect(await store.counts(tables)).toBe(afterDelete);
  });
});
