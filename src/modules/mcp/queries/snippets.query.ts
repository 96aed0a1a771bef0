import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { AssetReader } from '../../assets/asset.reader';
import { withSecretsMasked } from '../../assets/sensitives/secret-detector';
import { AssetAggregate } from '../../assets/wire/asset.wire';
import { SearchEngine } from '../../search/search-engine.service';

export interface SnippetHit {
  id: string;
  name: string;
  language: string;
  score: number;
  /** The first lines of its text. */
  preview: string;
}

/** search_snippets: the store's search (words, identifiers, typos), best first. */
export class SearchSnippetsQuery extends Query<SnippetHit[]> {
  constructor(
    readonly query: string,
    readonly limit: number,
    /** The previews show the secrets found in them instead of their masks. */
    readonly revealSecrets = false,
  ) {
    super();
  }
}

/** get_snippet and the snippet resources: one live snippet (404 unknown, 410 deleted). */
export class GetSnippetQuery extends Query<AssetAggregate> {
  constructor(readonly id: string) {
    super();
  }
}

/** The snippet resources a client lists: the most recent ones, by id and name. */
export class RecentSnippetsQuery extends Query<Array<{ id: string; name: string; language: string }>> {
  constructor(readonly limit: number) {
    super();
  }
}

const PREVIEW_LINES = 6;

@QueryHandler(SearchSnippetsQuery)
export class SearchSnippetsHandler implements IQueryHandler<SearchSnippetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly search: SearchEngine,
  ) {}

  async execute({ query, limit, revealSecrets }: SearchSnippetsQuery): Promise<SnippetHit[]> {
    const hits = await this.db.read((em) => this.search.search(em, { query, scope: { pseudo: false }, limit }));
    return hits.slice(0, limit).map((h) => {
      const first = (revealSecrets ? h.aggregate : withSecretsMasked(h.aggregate)).formats[0];
      return {
        id: h.aggregate.asset.id,
        name: h.aggregate.asset.name ?? 'Unnamed snippet',
        language: first?.specific ?? 'txt',
        score: h.score,
        preview: (first?.raw ?? '').split('\n').slice(0, PREVIEW_LINES).join('\n'),
      };
    });
  }
}

@QueryHandler(GetSnippetQuery)
export class GetSnippetHandler implements IQueryHandler<GetSnippetQuery> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
  ) {}

  execute({ id }: GetSnippetQuery): Promise<AssetAggregate> {
    return this.db.read((em) => this.assets.one(em, id));
  }
}

@QueryHandler(RecentSnippetsQuery)
export class RecentSnippetsHandler implements IQueryHandler<RecentSnippetsQuery> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
  ) {}

  execute({ limit }: RecentSnippetsQuery): Promise<Array<{ id: string; name: string; language: string }>> {
    return this.db.read(async (em) => {
      const ids = await this.assets.recentIds(em, limit);
      const rows = new Map((await this.assets.firstFormatTexts(em, ids)).map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const row = rows.get(id);
        return row ? [{ id, name: row.name ?? 'Unnamed snippet', language: row.specific }] : [];
      });
    });
  }
}
