import { StreamableFile } from '@nestjs/common';
import { TextPage, idListingPages, jsonCollection, jsonTextCollection } from '../../src/common/http/json-stream';

/** The body a StreamableFile streams, as text. */
async function bodyOf(file: StreamableFile): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of file.getStream()) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(parts).toString('utf8');
}

async function* pagesOf<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * The streamed collection bodies: `iterable` in order and `indices` (each id's position)
 * exactly, for collections of many pages whatever the ids hold, again and again; records
 * written by their shape; empty collections and pages.
 */
describe('jsonTextCollection, idListingPages, jsonCollection', () => {
  // ~120,000 ids over 24 pages; some with a newline, quotes, a backslash, non-ASCII.
  const odd = ['line\nbreak', 'a "quoted" id', 'back\\slash', 'ünï-çødé', 'tab\there', '{"id":"x"}'];
  const ids = Array.from({ length: 120_000 }, (_, i) =>
    i % 20_000 < odd.length ? `${odd[i % 20_000]}-${i}` : `id-${i.toString(36).padStart(8, '0')}-0123456789abcdef`,
  );

  it('writes every item, and indices with every id at its position, each time it is asked', async () => {
    // No id is integer-like, so JSON.stringify keeps the indices in insertion order: the body must be exactly this text.
    const expected = JSON.stringify({
      iterable: ids.map((id) => ({ id })),
      indices: Object.fromEntries(ids.map((id, i) => [id, i])),
    });
    for (let round = 0; round < 3; round++) {
      const text = await bodyOf(await jsonTextCollection(idListingPages(pagesOf(ids, 5000)), { indices: true }));
      const body = JSON.parse(text) as { iterable: unknown[]; indices: Record<string, number> };
      expect(body.iterable).toHaveLength(ids.length);
      expect(Object.keys(body.indices)).toHaveLength(ids.length);
      expect(text === expected).toBe(true);
    }
  });

  it('nests a collection under a key; leaves indices out unless asked; empty collections and pages are complete bodies', async () => {
    const under = JSON.parse(
      await bodyOf(
        await jsonTextCollection(idListingPages(pagesOf(['a', 'b', 'c'], 2)), { indices: true, under: 'identifiers' }),
      ),
    );
    expect(under).toEqual({
      identifiers: { iterable: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], indices: { a: 0, b: 1, c: 2 } },
    });
    expect(JSON.parse(await bodyOf(await jsonTextCollection(idListingPages(pagesOf(['a'], 2)))))).toEqual({
      iterable: [{ id: 'a' }],
    });
    expect(
      JSON.parse(await bodyOf(await jsonTextCollection(idListingPages(pagesOf([] as string[], 2)), { indices: true }))),
    ).toEqual({
      iterable: [],
      indices: {},
    });
    async function* withEmpty(): AsyncGenerator<TextPage> {
      yield { items: '', indices: '' };
      yield { items: '{"id":"x"}', indices: '"x":0' };
      yield { items: '', indices: '' };
    }
    expect(JSON.parse(await bodyOf(await jsonTextCollection(withEmpty(), { indices: true })))).toEqual({
      iterable: [{ id: 'x' }],
      indices: { x: 0 },
    });
    const records = JSON.parse(
      await bodyOf(await jsonCollection(pagesOf([1, 2, 3, 4, 5], 2), { item: (n) => JSON.stringify({ n }) })),
    );
    expect(records).toEqual({ iterable: [1, 2, 3, 4, 5].map((n) => ({ n })) });
  });

  it('answers the error of a first page that fails, before any byte is sent', async () => {
    async function* failing(): AsyncGenerator<TextPage> {
      yield* [];
      throw new Error('store unavailable');
    }
    await expect(jsonTextCollection(failing(), { indices: true })).rejects.toThrow('store unavailable');
  });
});
