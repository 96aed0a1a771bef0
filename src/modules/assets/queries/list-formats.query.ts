import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { jsonCollection, mapPages } from '../../../common/http/json-stream';
import { AssetReader } from '../asset.reader';
import { FormatWire, formatsWire } from '../wire/asset.wire';

/** GET /formats: every format of every live asset (pseudo ones left out, as the listings do), most recent asset first, streamed. */
export class ListFormatsQuery extends Query<StreamableFile> {
  constructor(readonly withContent: boolean) {
    super();
  }
}

@QueryHandler(ListFormatsQuery)
export class ListFormatsHandler implements IQueryHandler<ListFormatsQuery> {
  constructor(private readonly reader: AssetReader) {}

  execute({ withContent }: ListFormatsQuery): Promise<StreamableFile> {
    const pages = mapPages(this.reader.walk({ pseudo: false }), async (page): Promise<FormatWire[]> =>
      page.flatMap((a) => formatsWire(a, withContent).iterable),
    );
    return jsonCollection(pages, { item: (format) => JSON.stringify(format) });
  }
}
