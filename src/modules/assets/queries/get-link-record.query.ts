import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { TagRecordWire, WebsiteRecordWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/** GET /tag/{tag}, GET /website/{website}: one record with the live assets linked to it; 404 unknown. */
export class GetLinkRecordQuery extends Query<TagRecordWire | WebsiteRecordWire> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetLinkRecordQuery)
export class GetLinkRecordHandler implements IQueryHandler<GetLinkRecordQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
  ) {}

  execute({ kind, id }: GetLinkRecordQuery): Promise<TagRecordWire | WebsiteRecordWire> {
    return this.db.read(async (em) => {
      const record = await this.records.require(em, kind, id);
      const assets = (await this.records.linkedAssets(em, kind, [id])).get(id) ?? [];
      return kind === 'tag'
        ? tagRecordWire(record as TagEntity, assets)
        : websiteRecordWire(record as WebsiteEntity, assets);
    });
  }
}
