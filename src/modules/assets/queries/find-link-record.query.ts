import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { normaliseTag, normaliseUrl } from '../asset-text';
import { ExistentMetadataDto } from '../dto/records.dto';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { ExistingMetadataWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/**
 * POST /tags/exists, POST /websites/exists: the record of a text (a URL), compared as Trove
 * stores them (spaces collapsed; the URL normalised), as `{tag: {id, reference}}` /
 * `{website: {...}}`; `{}` when there is none (a value that cannot be a tag or URL included).
 */
export class FindLinkRecordQuery extends Query<ExistingMetadataWire> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly input: ExistentMetadataDto | undefined,
  ) {
    super();
  }
}

@QueryHandler(FindLinkRecordQuery)
export class FindLinkRecordHandler implements IQueryHandler<FindLinkRecordQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
  ) {}

  async execute({ kind, input }: FindLinkRecordQuery): Promise<ExistingMetadataWire> {
    if (!input) throw new InvalidInput('an ExistentMetadata body ({"value": ...}) is required');
    let key: string;
    try {
      key = kind === 'tag' ? normaliseTag(input.value) : normaliseUrl(input.value);
    } catch (error) {
      if (error instanceof InvalidInput) return {};
      throw error;
    }
    return this.db.read(async (em) => {
      const record = await this.records.byKey(em, kind, key);
      if (!record) return {};
      const assets = (await this.records.linkedAssets(em, kind, [record.id])).get(record.id) ?? [];
      return kind === 'tag'
        ? { tag: { id: record.id, reference: tagRecordWire(record as TagEntity, assets) } }
        : { website: { id: record.id, reference: websiteRecordWire(record as WebsiteEntity, assets) } };
    });
  }
}
