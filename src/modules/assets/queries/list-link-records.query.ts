import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { jsonCollection, mapPages } from '../../../common/http/json-stream';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { TagRecordWire, WebsiteRecordWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/**
 * GET /tags, GET /websites: every tag (website) Trove holds, most recent first, each with the
 * live assets linked to it, streamed a page at a time (Tags, Websites).
 */
export class ListLinkRecordsQuery extends Query<StreamableFile> {
  constructor(readonly kind: LinkRecordKind) {
    super();
  }
}

@QueryHandler(ListLinkRecordsQuery)
export class ListLinkRecordsHandler implements IQueryHandler<ListLinkRecordsQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
  ) {}

  execute({ kind }: ListLinkRecordsQuery): Promise<StreamableFile> {
    const pages = mapPages(this.records.walk(kind), (page: Array<TagEntity | WebsiteEntity>) => this.wires(kind, page));
    return jsonCollection(pages, { item: (wire) => JSON.stringify(wire) });
  }

  private wires(
    kind: LinkRecordKind,
    page: Array<TagEntity | WebsiteEntity>,
  ): Promise<Array<TagRecordWire | WebsiteRecordWire>> {
    return this.db.read(async (em) => {
      const assets = await this.records.linkedAssets(
        em,
        kind,
        page.map((r) => r.id),
      );
      return page.map((r) =>
        kind === 'tag'
          ? tagRecordWire(r as TagEntity, assets.get(r.id) ?? [])
          : websiteRecordWire(r as WebsiteEntity, assets.get(r.id) ?? []),
      );
    });
  }
}
