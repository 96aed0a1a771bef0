import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/** The one route that takes a raw upload. */
export const IMPORT_PATH = '/trove/import';
/** Content types whose body reaches POST /trove/import as the request stream itself, unbuffered. */
export const UPLOAD_TYPES = ['application/x-ndjson', 'application/octet-stream'];
/** How much of a refused upload is still read (and dropped) so that the client gets the answer before the connection closes. */
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * Registers the body parser of uploads: for POST /trove/import, an NDJSON or octet-stream body is
 * passed on as the request stream (the import reads it at its own pace, bounded by
 * TROVE_IMPORT_LIMIT, instead of Fastify buffering it under TROVE_BODY_LIMIT). Every other route
 * refuses these types with 415, as before. In a Nest application context without HTTP (the
 * command line) there is nothing to register.
 */
@Injectable()
export class UploadParser implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!fastify || typeof fastify.addContentTypeParser !== 'function' || fastify.hasContentTypeParser(UPLOAD_TYPES[0]))
      return;
    fastify.addContentTypeParser(UPLOAD_TYPES, (request, payload, done) => {
      if (request.routeOptions?.url !== IMPORT_PATH) {
        const type = String(request.headers['content-type'] ?? '');
        done(
          Object.assign(new Error(`unsupported Content-Type ${type.split(';')[0]}: send application/json`), {
            statusCode: 415,
          }),
          undefined,
        );
        return;
      }
      done(null, payload);
    });
  }
}

/** An iterator over a stream's chunks that does not destroy the stream when left early (an HTTP request must stay open for its answer). */
export function readerOf(input: NodeJS.ReadableStream): AsyncIterator<Buffer | string> {
  const readable = input as NodeJS.ReadableStream & {
    iterator?: (options: { destroyOnReturn: boolean }) => AsyncIterableIterator<Buffer | string>;
  };
  return typeof readable.iterator === 'function'
    ? readable.iterator({ destroyOnReturn: false })
    : (input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
}

/** Reads and drops what is left of a stream, up to `limit` bytes; true when it ended. */
export async function drain(iterator: AsyncIterator<Buffer | string>, limit = DRAIN_BYTES): Promise<boolean> {
  let bytes = 0;
  try {
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) {
      bytes += step.value.length;
      if (bytes > limit) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Marks an error thrown while an upload was still arriving: `drained` false when the rest was not read (the connection must close). */
export function markDrained(error: unknown, drained: boolean): void {
  if (typeof error === 'object' && error !== null) (error as { drained?: boolean }).drained = drained;
}
