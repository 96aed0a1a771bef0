import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';

/** What `jsonCollection` writes of each item. */
export interface CollectionShape<T> {
  /** The JSON text of one item (as JSON.stringify would write it). */
  item(value: T): string;
  /** When given, the collection is the value of this key of the body (`{"identifiers": {...}}`). */
  under?: string;
}

/**
 * One page of a collection as JSON text: its items, comma-separated (`{"id":"a"},{"id":"b"}`),
 * and for a collection with `indices` each item's id with its position in the whole collection,
 * comma-separated (`"a":0,"b":1`).
 */
export interface TextPage {
  /** The items' text, whole or in parts (each part comma-separated items). */
  items: string | Iterable<string>;
  indices?: string;
}

/** Characters of JSON text handed to the response at a time when a page's records are written (jsonCollection). */
const CHUNK_CHARS = 64 * 1024;

/**
 * A collection body (`{"iterable": [...]}`, with `indices` when asked) written as it is read, a
 * page at a time: the server holds one page and what the socket has not taken yet, whatever the
 * collection's size, and reads the next page only when the client has taken the last one (a slow
 * reader slows the walk down instead of making the server buffer). `indices` follow the whole
 * list, so their text is kept until then, as bytes (~45 bytes an id, one buffer a page). The
 * first page is read before anything is sent, so a failing store still answers an error status;
 * a failure after that cuts the body short (the client sees invalid JSON, never a wrong one).
 */
export async function jsonTextCollection(
  pages: AsyncIterable<TextPage>,
  options: { indices?: boolean; under?: string } = {},
): Promise<StreamableFile> {
  const iterator = pages[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* text(): AsyncGenerator<string | Buffer> {
    try {
      const kept: Buffer[] = [];
      let items = false;
      yield options.under ? `{${JSON.stringify(options.under)}:{"iterable":[` : '{"iterable":[';
      for (let step = first; !step.done; step = await iterator.next()) {
        const page = step.value;
        for (const part of typeof page.items === 'string' ? [page.items] : page.items) {
          if (!part) continue;
          yield items ? `,${part}` : part;
          items = true;
        }
        if (options.indices && page.indices) kept.push(Buffer.from(kept.length ? `,${page.indices}` : page.indices));
      }
      if (options.indices) {
        yield '],"indices":{';
        while (kept.length) {
          yield kept.shift()!;
          // Let other requests run between pages of indices (they need no read to wait for).
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        yield '}';
      } else {
        yield ']';
      }
      yield options.under ? '}}' : '}';
    } finally {
      await iterator.return?.();
    }
  }
  // One chunk waits in the stream at most; the response's own buffer holds the one before.
  return new StreamableFile(Readable.from(text(), { objectMode: false, highWaterMark: 1 }), {
    type: 'application/json; charset=utf-8',
  });
}

/**
 * Ids per page of an id listing. A page's texts (~95 kB of items and indices at 2,000 ids) stay
 * small enough for the young generation, which the scavenger frees cheaply; 5,000-id pages made
 * large-object strings that only full collections free (a million ids: peak RSS 328 MB against
 * 255 MB, and slower: 1.5-2.0 s against 1.2-1.4 s).
 */
export const ID_LISTING_PAGE = 2000;

/**
 * Pages of ids as the text of an id listing (FlattenedAssets, FlattenedConversations): items
 * `{"id":...}` and, for `indices`, each id with its position in the whole listing. Each id is
 * quoted once and the page's texts are joined: a listing of a million ids makes two strings a
 * page, not a few objects an id.
 */
export async function* idListingPages(pages: AsyncIterable<string[]>): AsyncGenerator<TextPage> {
  let position = 0;
  for await (const ids of pages) {
    if (ids.length === 0) continue;
    const keys = ids.map((id) => JSON.stringify(id));
    const from = position;
    position += ids.length;
    yield { items: `{"id":${keys.join('},{"id":')}}`, indices: keys.map((key, i) => `${key}:${from + i}`).join(',') };
  }
}

/**
 * A collection of records (`shape.item` writes each), streamed as jsonTextCollection streams its
 * pages. Each record's text is made just before it is sent, in parts of about CHUNK_CHARS: what is
 * alive at a time is a part, young garbage the scavenger takes cheaply, not a page's worth of
 * large strings (a page of 32 large snippets is megabytes of text, which only a full collection
 * would free: three whole listings at once then held 80 kB per record instead of a few).
 */
export function jsonCollection<T>(pages: AsyncIterable<T[]>, shape: CollectionShape<T>): Promise<StreamableFile> {
  function* parts(page: T[]): Generator<string> {
    let part = '';
    for (const value of page) {
      part += (part ? ',' : '') + shape.item(value);
      if (part.length >= CHUNK_CHARS) {
        yield part;
        part = '';
      }
    }
    if (part) yield part;
  }
  async function* text(): AsyncGenerator<TextPage> {
    for await (const page of pages) yield { items: parts(page) };
  }
  return jsonTextCollection(text(), { under: shape.under });
}

/** Maps each page of `pages` (e.g. ids to records, read in a page's own statement). */
export async function* mapPages<A, B>(
  pages: AsyncIterable<A[]>,
  map: (page: A[]) => Promise<B[]>,
): AsyncGenerator<B[]> {
  for await (const page of pages) yield await map(page);
}
