import { StreamableFile } from '@nestjs/common';
import { Readable } from 'node:stream';

/** What `jsonCollection` writes of each item. */
export interface CollectionShape<T> {
  /** The JSON text of one item (as JSON.stringify would write it). */
  item(value: T): string;
  /** When given, the collection also carries `indices` (each item's id -> its position), as `indexed` makes it. */
  id?(value: T): string;
  /** When given, the collection is the value of this key of the body (`{"identifiers": {...}}`). */
  under?: string;
}

/** Characters of JSON text handed to the response at a time. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Ids of a collection kept for its `indices`: their JSON texts (which never hold a raw newline,
 * whatever the id holds) one a line, in blocks of bytes, ~39 bytes an id, not a string each.
 */
class IdLog {
  private static readonly BLOCK = 1 << 20;
  /** Each block with how many of its bytes are ids (the rest is whatever the allocation held). */
  private readonly blocks: Array<{ bytes: Buffer; used: number }> = [];

  push(id: string): void {
    const json = JSON.stringify(id);
    const size = Buffer.byteLength(json) + 1;
    let block = this.blocks[this.blocks.length - 1];
    if (!block || block.used + size > block.bytes.length) {
      block = { bytes: Buffer.allocUnsafe(Math.max(IdLog.BLOCK, size)), used: 0 };
      this.blocks.push(block);
    }
    block.used += block.bytes.write(json, block.used);
    block.bytes[block.used++] = 0x0a;
  }

  /** The ids' JSON texts in order, a block's worth at a time; each block is released once read. */
  *read(): Generator<string[]> {
    while (this.blocks.length) {
      const { bytes, used } = this.blocks.shift()!;
      yield bytes.toString('utf8', 0, used).split('\n').slice(0, -1);
    }
  }
}

/**
 * A collection body (`{"iterable": [...]}`, with `indices` when the shape says so) written as
 * it is read, a page at a time: the server holds one page and what the socket has not taken
 * yet, whatever the collection's size, and reads the next page only when the client has taken
 * the last one (a slow reader slows the walk down instead of making the server buffer). The
 * first page is read before anything is sent, so a failing store still answers an error status;
 * a failure after that cuts the body short (the client sees invalid JSON, never a wrong one).
 */
export async function jsonCollection<T>(pages: AsyncIterable<T[]>, shape: CollectionShape<T>): Promise<StreamableFile> {
  const iterator = pages[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* text(): AsyncGenerator<string> {
    try {
      const ids = shape.id ? new IdLog() : null;
      let count = 0;
      let chunk = shape.under ? `{${JSON.stringify(shape.under)}:{"iterable":[` : '{"iterable":[';
      for (let step = first; !step.done; step = await iterator.next()) {
        for (const value of step.value) {
          // Each item's text is made just before it is sent: what is alive at a time is a chunk,
          // young garbage the scavenger takes cheaply, not a page's worth of large strings.
          chunk += (count++ ? ',' : '') + shape.item(value);
          ids?.push(shape.id!(value));
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
      }
      if (ids) {
        let position = 0;
        chunk += '],"indices":{';
        for (const part of ids.read()) {
          for (const key of part) {
            chunk += `${position ? ',' : ''}${key}:${position++}`;
            if (chunk.length >= CHUNK_CHARS) {
              yield chunk;
              chunk = '';
            }
          }
          // No read between these chunks to give way to other requests: let them run (a million
          // ids would otherwise be one second of event loop, and the overload guard answers 503).
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        chunk += '}';
      } else {
        chunk += ']';
      }
      yield chunk + (shape.under ? '}}' : '}');
    } finally {
      await iterator.return?.();
    }
  }
  // One chunk waits in the stream at most; the response's own buffer holds the one before.
  return new StreamableFile(Readable.from(text(), { objectMode: false, highWaterMark: 1 }), { type: 'application/json; charset=utf-8' });
}

/** Maps each page of `pages` (e.g. ids to records, read in a page's own statement). */
export async function* mapPages<A, B>(pages: AsyncIterable<A[]>, map: (page: A[]) => Promise<B[]>): AsyncGenerator<B[]> {
  for await (const page of pages) yield await map(page);
}
