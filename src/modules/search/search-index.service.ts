import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { PostgresSearchStore } from './store/postgres.store';
import { IndexTerms, IndexedDocument, SearchStore } from './store/search-store';
import { SqliteSearchStore } from './store/sqlite.store';
import { MAX_INDEXED_CHARS, indexText, vocabulary } from './terms';

/** Characters of the text (after the name) that substring search covers. */
export const HEAD_CHARS = 2000;

interface SourceRow {
  kind: 'a' | 'f' | 'n' | 't' | 'w';
  x: string | null;
  y: string | null;
  z: string | null;
  w: string | null;
  v: string | null;
}

/** Tags are matched by their text, case-insensitively, spaces collapsed. */
export function normaliseTag(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The search index over assets. Owned by the search module; the assets module calls it INSIDE
 * the transaction that changes an asset, so search never sees a half-written asset.
 *
 * Tables (raw SQL, created by the SearchIndex migrations; not TypeORM entities):
 * `search_documents` (one row per live asset: its searchable fields, pseudo flag, dates),
 * the full-text structures of the dialect (see store/*.store.ts), `search_tags` (normalised
 * tags) and `search_vocab` (every term ever indexed with its reverse, for typo correction;
 * it only grows, a term of a deleted asset is checked against live documents before use).
 */
@Injectable()
export class SearchIndex implements OnApplicationBootstrap {
  private readonly logger = new Logger('SearchIndex');
  readonly store: SearchStore;

  constructor(private readonly db: Database) {
    this.store = db.dialect === 'postgres' ? new PostgresSearchStore() : new SqliteSearchStore(db);
  }

  /**
   * (Re)indexes one asset from its current rows, within `em`'s transaction. `created`: the
   * asset was created in this transaction (nothing indexed to replace).
   */
  async index(em: EntityManager, assetId: string, options: { created?: boolean } = {}): Promise<void> {
    const doc = await this.load(em, assetId);
    if (!doc) return this.store.remove(em, assetId);
    await this.store.write(em, doc, analyse(doc), options.created === true);
  }

  /** Drops one asset from the index, within `em`'s transaction. */
  async remove(em: EntityManager, assetId: string): Promise<void> {
    await this.store.remove(em, assetId);
  }

  /** Indexes live assets the index does not know (created before the index existed). */
  async onApplicationBootstrap(): Promise<void> {
    let total = 0;
    for (;;) {
      const ids = await this.db.read((em) => this.store.missing(em, 500));
      if (ids.length === 0) break;
      await this.db.transaction(async (em) => {
        for (const id of ids) await this.index(em, id);
      });
      total += ids.length;
    }
    if (total) this.logger.log(`indexed ${total} assets that were missing from the search index`);
  }

  /** One round trip: the asset row and its formats, annotations, tags and websites. */
  private async load(em: EntityManager, assetId: string): Promise<IndexedDocument | null> {
    const p = this.db.dialect === 'postgres' ? '$1' : '?1';
    const sqlite = this.db.dialect === 'sqlite';
    const rows: SourceRow[] = await ((sql: string, params: unknown[]) => this.db.query<SourceRow>(em, sql, params))(
      `SELECT 'a' AS kind, a.name AS x, CASE WHEN a.pseudo THEN '1' ELSE '0' END AS y, a.created_at AS z, a.updated_at AS w, a.deleted_at AS v FROM assets a WHERE a.id = ${p}
       UNION ALL SELECT 'f', f.raw, f.specific, CAST(f.position AS varchar(12)), NULL, NULL FROM formats f WHERE f.asset_id = ${p}
       UNION ALL SELECT 'n', n.text, n.created_at, NULL, NULL, NULL FROM annotations n WHERE n.asset_id = ${p}
       UNION ALL SELECT 't', t.text, NULL, NULL, NULL, NULL FROM asset_tags at JOIN tags t ON t.id = at.tag_id WHERE at.asset_id = ${p}
       UNION ALL SELECT 'w', ws.url, ws.name, NULL, NULL, NULL FROM asset_websites aw JOIN websites ws ON ws.id = aw.website_id WHERE aw.asset_id = ${p}`,
      [assetId],
    );
    const asset = rows.find((r) => r.kind === 'a');
    if (!asset || asset.v) return null;
    const formats = rows.filter((r) => r.kind === 'f').sort((a, b) => Number(a.z) - Number(b.z));
    const annotations = rows.filter((r) => r.kind === 'n').sort((a, b) => (a.y ?? '').localeCompare(b.y ?? ''));
    return {
      assetId,
      pseudo: asset.y === '1',
      name: asset.x ?? '',
      annotations: annotations.map((r) => r.x ?? '').join('\n'),
      content: formats.map((r) => r.x ?? '').join('\n'),
      tags: [...new Set(rows.filter((r) => r.kind === 't').map((r) => normaliseTag(r.x ?? '')))],
      websites: rows.filter((r) => r.kind === 'w').map((r) => `${r.x ?? ''} ${r.y ?? ''}`.toLowerCase()),
      specifics: [...new Set(formats.map((r) => r.y ?? '').filter(Boolean))],
      createdAt: asset.z!,
      updatedAt: asset.w!,
    };
  }
}

function analyse(doc: IndexedDocument): IndexTerms {
  const name = indexText(doc.name);
  const annotations = indexText(doc.annotations);
  const tags = indexText(doc.tags.join(' '));
  const websites = indexText(doc.websites.join(' '));
  const content = indexText(doc.content.slice(0, MAX_INDEXED_CHARS));
  return {
    name,
    annotations,
    tags,
    websites,
    content,
    head: doc.content.slice(0, HEAD_CHARS).toLowerCase(),
    vocabulary: vocabulary(`${name} ${annotations} ${tags} ${content}`),
  };
}
