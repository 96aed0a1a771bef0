import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { PassThrough } from 'node:stream';
import { StoreExport } from '../store-export.service';

/** The whole store as NDJSON, streamed (GET /trove/export). */
export class ExportStoreQuery extends Query<StreamableFile> {}

@QueryHandler(ExportStoreQuery)
export class ExportStoreHandler implements IQueryHandler<ExportStoreQuery> {
  constructor(private readonly exports: StoreExport) {}

  /**
   * The snapshot is taken and counted before the answer starts, so a failing store still answers
   * an error status; a failure after that cuts the body short (no end line: an import refuses it).
   * The export waits whenever the client has not taken what was sent; a client that goes away
   * ends it.
   */
  async execute(): Promise<StreamableFile> {
    const open = await this.exports.openExport();
    const body = new PassThrough({ highWaterMark: 256 * 1024 });
    open.run(body).then(
      () => body.end(),
      (error: Error) => body.destroy(error),
    );
    const stamp = open.header.exported.replace(/[:.]/g, '-');
    return new StreamableFile(body, {
      type: 'application/x-ndjson; charset=utf-8',
      disposition: `attachment; filename="trove-export-${stamp}.ndjson"`,
    });
  }
}
