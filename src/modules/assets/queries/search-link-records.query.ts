import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { SearchInputDto, searchOfInput } from '../dto/workstream-summary.dto';
import { LinkRecordKind, RecordsReader } from '../records.reader';
import { TagEntity } from '../tag.entity';
import { WebsiteEntity } from '../website.entity';
import { SearchedTagsWire, SearchedWebsitesWire, tagRecordWire, websiteRecordWire } from '../wire/records.wire';

/** Results of a records search at most. */
const LIMIT = 100;

/**
 * POST /tags/search, POST /websites/search: the tags whose text (websites whose URL or name)
 * contains a word of the queries of the SearchInput's engines, case aside; most words first.
 * `similarity` is the share of the words a record contains, relative to the best (1); `exact`
 * says the record's text (URL, name) is the whole query; `full_text.exact` keeps only those.
 */
export class SearchLinkRecordsQuery extends Query<SearchedTagsWire | SearchedWebsitesWire> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly input: SearchInputDto | undefined,
  ) {
    super();
  }
}

@QueryHandler(SearchLinkRecordsQuery)
export class SearchLinkRecordsHandler implements IQueryHandler<SearchLinkRecordsQuery> {
  constructor(
    private readonly db: Database,
    private readonly records: RecordsReader,
  ) {}

  execute({ kind, input }: SearchLinkRecordsQuery): Promise<SearchedTagsWire | SearchedWebsitesWire> {
    if (!input) throw new InvalidInput('a SearchInput body is required');
    const { query, exact: onlyExact } = searchOfInput(input);
    const words = [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 16);
    return this.db.read(async (em) => {
      const found = await this.records.matching(em, kind, words, LIMIT);
      const assets = await this.records.linkedAssets(
        em,
        kind,
        found.map((r) => r.id),
      );
      const fields = (r: TagEntity | WebsiteEntity) =>
        kind === 'tag' ? [(r as TagEntity).text] : [(r as WebsiteEntity).url, (r as WebsiteEntity).name];
      const scored = found.map((record) => {
        const text = fields(record).map((f) => f.toLowerCase());
        const hits = words.filter((w) => text.some((f) => f.includes(w))).length;
        return { record, hits, exact: text.some((f) => f === query.trim().toLowerCase()) };
      });
      const best = Math.max(1, ...scored.map((s) => s.hits));
      const kept = scored.filter((s) => !onlyExact || s.exact);
      const iterable = kept.map(({ record, hits, exact }) => {
        const linked = assets.get(record.id) ?? [];
        const similarity = hits / best;
        return kind === 'tag'
          ? { identifier: record.id, tag: tagRecordWire(record as TagEntity, linked), exact, similarity }
          : { identifier: record.id, website: websiteRecordWire(record as WebsiteEntity, linked), exact, similarity };
      });
      return { iterable } as SearchedTagsWire | SearchedWebsitesWire;
    });
  }
}
