import { StreamableFile } from '@nestjs/common';
import { jsonCollection } from '../../src/common/http/json-stream';

/** The body a StreamableFile streams, as text. */
async function bodyOf(file: StreamableFile): Promise<string> {
  let text = '';
  for await (const chunk of file.getStream()) text += String(chunk);
  return text;
}

async function* pagesOf<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * jsonCollection, the streamed collection bodies: `iterable` in order and `indices` (each id's
 * position) exactly, for collections whose kept ids span many blocks, whatever the ids hold, and
 * again and again (blocks of earlier bodies reused by the allocator must not leak into later ones).
 */
describe('jsonCollection', () => {
  // ~120,000 ids: several 1 MB blocks of kept ids; some with a newline, quotes, a backslash, non-ASCII.
  const odd = ['line\nbreak', 'a "quoted" id', 'back\\slash', 'ünï-çødé', 'tab\there', '{"id":"x"}'];
  const ids = Array.from({ length: 120_000 }, (_, i) =>
    i % 20_000 < odd.length ? `${odd[i % 20_000]}-${i}` : `id-${i.toString(36).padStart(8, '0')}-0123456789abcdef`,
  );

  it('writes every item, and indices with every id at its position, each time it is asked', async () => {
    // No id is integer-like, so JSON.stringify keeps the indices in insertion order: the body must be exactly this text.
    const expected = JSON.stringify({ iterable: ids.map((id) => ({ id })), indices: Object.fromEntries(ids.map((id, i) => [id, i])) });
    for (let round = 0; round < 4; round++) {
      const text = await bodyOf(await jsonCollection(pagesOf(ids, 5000), { item: (id) => JSON.stringify({ id }), id: (id) => id }));
      const body = JSON.parse(text) as { iterable: unknown[]; indices: Record<string, number> };
      expect(body.iterable).toHaveLength(ids.length);
      expect(Object.keys(body.indices)).toHaveLength(ids.length);
      expect(text === expected).toBe(true);
    }
  });

  it('nests the collection under a key and leaves indices out when there are no ids', async () => {
    const under = JSON.parse(
      await bodyOf(await jsonCollection(pagesOf(['a', 'b'], 1), { item: (id) => JSON.stringify({ id }), id: (id) => id, under: 'identifiers' })),
    );
    expect(under).toEqual({ identifiers: { iterable: [{ id: 'a' }, { id: 'b' }], indices: { a: 0, b: 1 } } });
    const plain = JSON.parse(await bodyOf(await jsonCollection(pagesOf([1, 2, 3], 2), { item: (n) => String(n) })));
    expect(plain).toEqual({ iterable: [1, 2, 3] });
    const empty = JSON.parse(await bodyOf(await jsonCollection(pagesOf([], 2), { item: (n) => String(n), id: String })));
    expect(empty).toEqual({ iterable: [], indices: {} });
  });
});
