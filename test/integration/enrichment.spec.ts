import { CreateAssetCommand } from '../../src/modules/assets/commands/create-asset.command';
import { UpdateAssetCommand } from '../../src/modules/assets/commands/update-asset.command';
import { AssetDto } from '../../src/modules/assets/dto/asset.dto';
import { GetAssetQuery } from '../../src/modules/assets/queries/get-asset.query';
import { AssetWire } from '../../src/modules/assets/wire/asset.wire';
import { validateInput } from '../../src/common/validation/input';
import { seedOf, useTestStore } from './support/store';

const FIB =
  'def fib(n):\n    """Return the n-th Fibonacci number."""\n    return n if n < 2 else fib(n-1) + fib(n-2)\n';
const FACTORIAL =
  'def factorial(n):\n    """Return n! computed iteratively."""\n    result = 1\n    for k in range(2, n + 1):\n        result *= k\n    return result\n';

/**
 * The offline enrichment through the use cases: a create without a name, a description or tags
 * gets them in its own save, marked AUTOMATIC and recorded as generated; a later edit of the text
 * makes the parts still generated follow it, and leaves what the user wrote alone.
 */
describe('enrichment follow-up', () => {
  const store = useTestStore();
  const create = async (raw: string, metadata: Record<string, unknown> = {}) =>
    store.commands.execute(new CreateAssetCommand(await seedOf(raw, metadata), true));
  const get = (id: string): Promise<AssetWire> => store.queries.execute(new GetAssetQuery(id, true));
  const update = async (asset: Record<string, unknown>) =>
    store.commands.execute(new UpdateAssetCommand(await validateInput(AssetDto, asset), true));
  const editText = (asset: AssetWire, raw: string) =>
    update({ id: asset.id, formats: { iterable: [{ id: asset.original.id, fragment: { string: { raw } } }] } });
  const tags = (asset: AssetWire) => asset.tags.iterable.map((t) => t.text);
  const descriptions = (asset: AssetWire) =>
    asset.annotations.iterable.filter((a) => a.type === 'DESCRIPTION').map((a) => [a.text, a.mechanism]);
  const recorded = async (id: string) =>
    (
      await store.sql<{ name: string | null; tags: string }>(
        `SELECT name, tags FROM asset_enrichments WHERE asset_id = '${id}'`,
      )
    )[0];

  it('a create without metadata gets a name, a description and tags in its save, recorded as generated', async () => {
    const created = await create(FIB);
    expect(created.name).toBe('fib: return the n-th Fibonacci number (Python function)');
    // What the create answered is what is stored.
    const asset = await get(created.id);
    expect(asset.name).toBe(created.name);
    expect(descriptions(asset)).toEqual([['Python function `fib`: Return the n-th Fibonacci number.', 'AUTOMATIC']]);
    expect(tags(asset)).toEqual(['python', 'fib', 'fibonacci', 'number']);
    const record = await recorded(created.id);
    expect(record.name).toBe(created.name);
    expect(JSON.parse(record.tags)).toEqual(['python', 'fib', 'fibonacci', 'number']);
  });

  it('what the client gives is kept and nothing is generated for it', async () => {
    const created = await create(FIB, {
      name: 'my fib',
      tags: [{ text: 'mine' }],
      annotations: [{ type: 'DESCRIPTION', text: 'my own words' }],
    });
    const asset = await get(created.id);
    expect(asset.name).toBe('my fib');
    expect(tags(asset)).toEqual(['mine']);
    expect(descriptions(asset)).toEqual([['my own words', 'MANUAL']]);
    expect(await recorded(created.id)).toBeUndefined();
  });

  it('an edit of the text makes the generated name, description and tags follow it', async () => {
    const created = await create(FIB);
    await editText(created, FACTORIAL);
    const asset = await get(created.id);
    expect(asset.original.reference.fragment?.string?.raw).toBe(FACTORIAL);
    expect(asset.name).toMatch(/^factorial: return n! computed iteratively/);
    expect(descriptions(asset)).toEqual([[expect.stringMatching(/^Python function `factorial`/), 'AUTOMATIC']]);
    expect(tags(asset)).toEqual(expect.arrayContaining(['python', 'factorial']));
    expect(tags(asset)).not.toContain('fibonacci');
    expect((await recorded(created.id)).name).toBe(asset.name);
  });

  it("a user's edit wins: a renamed asset keeps its name and the user's tag after the text changes", async () => {
    const created = await create(FIB);
    await update({
      id: created.id,
      name: 'the user named it',
      tags: { iterable: [...created.tags.iterable.map((t) => ({ text: t.text })), { text: 'keep-me' }] },
    });
    await editText(await get(created.id), FACTORIAL);
    const asset = await get(created.id);
    expect(asset.name).toBe('the user named it');
    const texts = tags(asset);
    expect(texts).toContain('keep-me');
    expect(texts).toContain('factorial');
    expect(texts).not.toContain('fibonacci');
    // The description was still Trove's: it follows the text.
    expect(descriptions(asset)).toEqual([[expect.stringMatching(/^Python function `factorial`/), 'AUTOMATIC']]);
  });
});
