import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import { Database } from '../../common/database/database.service';
import { KeysetSource, keysetWalkIds } from '../../common/database/keyset';
import { Gone, NotFound } from '../../common/errors/domain-errors';

/** A workstream summary as a memory: what an agent saved (see WorkstreamSummaryEntity). Times are ISO-8601. */
export interface MemoryRecord {
  id: string;
  name: string;
  description: string | null;
  text: string;
  project: string | null;
  files: string[];
  links: string[];
  source: string | null;
  created: string;
  updated: string;
  /** The time it is about: its creation, or the time the client gave when saving it. */
  about: string;
}

/** A memory found by `search`; `score` in (0, 1], 1 for the best hit. */
export interface MemoryHit extends MemoryRecord {
  score: number;
}

/** A memory with the assets linked to it, oldest link first (what its wire form shows). */
export interface LinkedMemoryRecord extends MemoryRecord {
  assets: string[];
}

/** At most this many distinct words of a query are searched for (the rest are dropped). */
const MAX_TERMS = 32;
/** A longer word is cut to this many characters. */
const MAX_TERM_LENGTH = 64;
/** Words of at least this many characters also match as prefixes ("migrat" finds "migration"). */
const PREFIX_FROM = 3;
/** The most hits one search answers. */
export const MAX_MEMORY_HITS = 1000;
const MAX_HITS = MAX_MEMORY_HITS;

/** English function words: left out of a query that has other words (each matches most memories and says nothing). */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor of to in on at for with by from as into about is are was were be been being am do does did ' +
    'has have had having what which who whom whose how why when where i me my we us our you your he him his she her it ' +
    'its they them their this that these those there here than then so if not no yes can could would should will shall'
  ).split(' '),
);

/**
 * The words of a search query: runs of letters, digits and combining marks, lower-cased,
 * distinct, at most MAX_TERMS; English function words ("what", "the", "did") are left out when
 * the query has other words. Everything else (quotes, operators, punctuation) separates words,
 * so no user text reaches FTS5's or to_tsquery's syntax: a query without a word is no search.
 */
export function memorySearchTerms(query: string): string[] {
  const all = allSearchTerms(query);
  const content = all.filter((t) => !FUNCTION_WORDS.has(t));
  return content.length ? content : all;
}

function allSearchTerms(query: string): string[] {
  const out = new Set<string>();
  for (const match of String(query)
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const term = [...match[0].replace(/^\p{M}+/u, '')].slice(0, MAX_TERM_LENGTH).join(''); // no leading combining mark
    if (!term) continue;
    out.add(term);
    if (out.size === MAX_TERMS) break;
  }
  return [...out];
}

/** Index matches read beyond a search's limit, so that equal ranks are ordered (newest first) among more than the cut. */
const TIE_MARGIN = 50;

const isPrefix = (term: string) => [...term].length >= PREFIX_FROM;

/** The FTS5 MATCH expression of the terms: each one quoted (a phrase of one word, never an operator), ORed. */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"${isPrefix(t) ? '*' : ''}`).join(' OR ');
}

/** The to_tsquery text of the terms: each one quoted as a lexeme, ORed. */
export function tsQuery(terms: string[]): string {
  return terms.map((t) => `'${t.replace(/['\\]/g, '')}'${isPrefix(t) ? ':*' : ''}`).join(' | ');
}

interface Row {
  id: string;
  name: string;
  description: string | null;
  text: string;
  project: string | null;
  files: string;
  links: string;
  source: string | null;
  created_at: string;
  updated_at: string;
  about_at: string | null;
  deleted_at: string | null;
  assets_json?: unknown;
  rank?: number | string;
}

/** A JSON array of strings stored as text (anything else reads as empty). */
function strings(value: unknown): string[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

function recordOf(row: Row): MemoryRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? null,
    text: row.text ?? '',
    project: row.project ?? null,
    files: strings(row.files),
    links: strings(row.links),
    source: row.source ?? null,
    created: row.created_at,
    updated: row.updated_at,
    about: row.about_at ?? row.created_at,
  };
}

const linkedOf = (row: Row): LinkedMemoryRecord => ({ ...recordOf(row), assets: strings(row.assets_json) });

/** The columns a record needs (never PostgreSQL's `search` vector). */
const COLUMNS = [
  'id',
  'name',
  'description',
  'text',
  'project',
  'files',
  'links',
  'source',
  'created_at',
  'updated_at',
  'about_at',
  'deleted_at',
]
  .map((c) => `s.${c}`)
  .join(', ');

/**
 * Reads workstream summaries as memories: one by id, the newest, and full-text search (SQLite:
 * the FTS5 table `workstream_summaries_fts`, bm25 with the name weighted 10, the description 4,
 * the text 2, project, files and links 1; PostgreSQL: the generated tsvector `search` and
 * ts_rank, with the same ratios through its weight classes). Deleted ones are left out, except
 * that reading one by id answers 410.
 */
@Injectable()
export class WorkstreamSummaryReader {
  /** Live summaries, newest first, as the identifiers stream's first frame walks them (see keysetWalk). */
  static readonly LISTING: KeysetSource = { table: 'workstream_summaries', where: 'deleted_at IS NULL' };

  constructor(private readonly db: Database) {}

  /** The ids of the assets linked to a summary (`s`), oldest link first, as a JSON array. */
  private assetsColumn(): string {
    return this.db.dialect === 'postgres'
      ? `(SELECT coalesce(json_agg(l.asset_id ORDER BY l.created_at, l.asset_id), '[]'::json) FROM asset_workstream_summaries l WHERE l.workstream_summary_id = s.id)`
      : `(SELECT json_group_array(asset_id) FROM (SELECT l.asset_id FROM asset_workstream_summaries l WHERE l.workstream_summary_id = s.id ORDER BY l.created_at, l.asset_id))`;
  }

  private async row(em: EntityManager, id: string, withAssets: boolean): Promise<Row | null> {
    const assets = withAssets ? `, ${this.assetsColumn()} AS assets_json` : '';
    const [row] = await this.db.query<Row>(
      em,
      `SELECT ${COLUMNS}${assets} FROM workstream_summaries s WHERE s.id = ${this.db.param(1)}`,
      [String(id)],
    );
    return row ?? null;
  }

  /** One memory; null when there never was one with this id; 410 (Gone) once deleted. */
  async get(em: EntityManager, id: string): Promise<MemoryRecord | null> {
    const row = await this.row(em, id, false);
    if (!row) return null;
    if (row.deleted_at) throw new Gone(`workstream summary ${id} no longer exists`);
    return recordOf(row);
  }

  /** One memory with its linked assets; 404 when unknown, 410 once deleted. */
  async linked(em: EntityManager, id: string): Promise<LinkedMemoryRecord> {
    const row = await this.row(em, id, true);
    if (!row) throw new NotFound(`workstream summary ${id} not found`);
    if (row.deleted_at) throw new Gone(`workstream summary ${id} no longer exists`);
    return linkedOf(row);
  }

  /** Succeeds for a live summary; 404 when unknown, 410 once deleted. */
  async require(em: EntityManager, id: string): Promise<void> {
    const [row] = await this.db.query<{ deleted_at: string | null }>(
      em,
      `SELECT deleted_at FROM workstream_summaries WHERE id = ${this.db.param(1)}`,
      [id],
    );
    if (!row) throw new NotFound(`workstream summary ${id} not found`);
    if (row.deleted_at) throw new Gone(`workstream summary ${id} no longer exists`);
  }

  /** The newest live memories first, at most `limit`. */
  async list(em: EntityManager, limit: number): Promise<MemoryRecord[]> {
    const n = Math.min(Math.floor(limit), MAX_HITS);
    if (!(n > 0)) return [];
    const rows = await this.db.query<Row>(
      em,
      `SELECT ${COLUMNS} FROM workstream_summaries s WHERE s.deleted_at IS NULL ORDER BY s.created_at DESC, s.id DESC LIMIT ${this.db.param(1)}`,
      [n],
    );
    return rows.map(recordOf);
  }

  /** Every live memory with its linked assets, newest first (the snapshot). */
  async allLinked(em: EntityManager): Promise<LinkedMemoryRecord[]> {
    const rows = await this.db.query<Row>(
      em,
      `SELECT ${COLUMNS}, ${this.assetsColumn()} AS assets_json FROM workstream_summaries s WHERE s.deleted_at IS NULL ORDER BY s.created_at DESC, s.id DESC`,
    );
    return rows.map(linkedOf);
  }

  /**
   * Live memories matching any word of `query`, best first, at most `limit`; none for a query
   * without a word. `about`: only those about a time in [from, to) (ISO-8601).
   */
  search(em: EntityManager, query: string, limit: number, about?: { from: string; to: string }): Promise<MemoryHit[]> {
    return this.find(em, query, limit, false, about);
  }

  /** As `search`, each hit with its linked assets. */
  searchLinked(em: EntityManager, query: string, limit: number): Promise<Array<MemoryHit & LinkedMemoryRecord>> {
    return this.find(em, query, limit, true) as Promise<Array<MemoryHit & LinkedMemoryRecord>>;
  }

  private async find(
    em: EntityManager,
    query: string,
    limit: number,
    withAssets: boolean,
    about?: { from: string; to: string },
  ): Promise<MemoryHit[]> {
    const terms = memorySearchTerms(query);
    const n = Math.min(Math.floor(limit), MAX_HITS);
    if (!terms.length || !(n > 0)) return [];
    const assets = withAssets ? `, ${this.assetsColumn()} AS assets_json` : '';
    const p = (i: number) => this.db.param(i);
    const when = about ? ` AND s.about_at >= ${p(3)} AND s.about_at < ${p(4)}` : '';
    // rank: larger is better (bm25 answers the negated score). SQLite: CROSS JOIN keeps the FTS
    // match as the outer loop; with a plain JOIN the planner may run the match once per summary
    // (578 ms instead of 3 ms at 1,000 memories).
    const sql =
      this.db.dialect === 'postgres'
        ? // Ranked and cut on the ids first, then the rows of the best read (not every match's text sorted).
          `SELECT ${COLUMNS}${assets}, f.rank AS rank
             FROM (SELECT s.id, s.created_at, ts_rank(s.search, q) AS rank
                     FROM workstream_summaries s, to_tsquery('simple', $1) q
                    WHERE s.search @@ q AND s.deleted_at IS NULL${when}
                    ORDER BY rank DESC, s.created_at DESC, s.id DESC LIMIT $2) f
             JOIN workstream_summaries s ON s.id = f.id
            ORDER BY f.rank DESC, f.created_at DESC, f.id DESC`
        : about
          ? `SELECT ${COLUMNS}${assets}, -bm25(workstream_summaries_fts, 10.0, 4.0, 2.0, 1.0, 1.0, 1.0) AS rank
               FROM workstream_summaries_fts CROSS JOIN workstream_summaries s ON s.rowid = workstream_summaries_fts.rowid
              WHERE workstream_summaries_fts MATCH ?1 AND s.deleted_at IS NULL${when}
              ORDER BY rank DESC, s.created_at DESC, s.id DESC LIMIT ?2`
          : // The best matches ranked in the index alone, then joined to their rows: a common word matches
            // a large part of the store, and reading every matching row before cutting costs more than the
            // ranking (a deleted summary is emptied, so no word matches it; ties are cut after the rank).
            `SELECT ${COLUMNS}${assets}, f.rank AS rank
               FROM (SELECT rowid, -bm25(workstream_summaries_fts, 10.0, 4.0, 2.0, 1.0, 1.0, 1.0) AS rank FROM workstream_summaries_fts
                      WHERE workstream_summaries_fts MATCH ?1 ORDER BY bm25(workstream_summaries_fts, 10.0, 4.0, 2.0, 1.0, 1.0, 1.0) LIMIT ?2 + ${TIE_MARGIN}) f
               CROSS JOIN workstream_summaries s ON s.rowid = f.rowid
              WHERE s.deleted_at IS NULL
              ORDER BY rank DESC, s.created_at DESC, s.id DESC LIMIT ?2`;
    const params: unknown[] = [this.db.dialect === 'postgres' ? tsQuery(terms) : ftsMatch(terms), n];
    if (about) params.push(about.from, about.to);
    const rows = await this.db.query<Row>(em, sql, params);
    const ranks = rows.map((r) => Math.max(Number(r.rank) || 0, Number.MIN_VALUE));
    const best = Math.max(...ranks);
    return rows.map((row, i) => ({
      ...(withAssets ? linkedOf(row) : recordOf(row)),
      score: Math.min(1, Math.max(ranks[i] / best, Number.MIN_VALUE)),
    }));
  }

  /** The live ones among `ids`, each with its linked assets, in no particular order. */
  async liveLinked(em: EntityManager, ids: string[]): Promise<LinkedMemoryRecord[]> {
    const out: LinkedMemoryRecord[] = [];
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.db.query<Row>(
        em,
        `SELECT ${COLUMNS}, ${this.assetsColumn()} AS assets_json FROM workstream_summaries s WHERE s.deleted_at IS NULL AND s.id IN (${this.db.params(part.length)})`,
        part,
      );
      out.push(...rows.map(linkedOf));
    }
    return out;
  }

  /** Ids of every live memory, newest first, `pageSize` at a time (see keysetWalk). */
  walkIds(pageSize: number): AsyncGenerator<string[]> {
    return keysetWalkIds(this.db, WorkstreamSummaryReader.LISTING, pageSize);
  }

  /** Live memories about a time in [from, to) (ISO-8601), nearest its middle first, at most `limit`. */
  async about(em: EntityManager, from: string, to: string, limit: number): Promise<MemoryRecord[]> {
    const n = Math.min(Math.floor(limit), MAX_HITS);
    if (!(n > 0)) return [];
    const rows = await this.db.query<Row>(
      em,
      `SELECT ${COLUMNS} FROM workstream_summaries s WHERE s.deleted_at IS NULL AND s.about_at >= ${this.db.param(1)} AND s.about_at < ${this.db.param(2)}
        ORDER BY s.about_at, s.id LIMIT ${this.db.param(3)}`,
      [from, to, n],
    );
    return rows.map(recordOf);
  }

  /** The ids of the assets linked to a summary. */
  async linkedAssetIds(em: EntityManager, id: string): Promise<string[]> {
    const rows = await this.db.query<{ asset_id: string }>(
      em,
      `SELECT asset_id FROM asset_workstream_summaries WHERE workstream_summary_id = ${this.db.param(1)} ORDER BY created_at, asset_id`,
      [id],
    );
    return rows.map((r) => r.asset_id);
  }

  /** The ids of the summaries linked to an asset. */
  async linkedTo(em: EntityManager, assetId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      em,
      `SELECT workstream_summary_id AS id FROM asset_workstream_summaries WHERE asset_id = ${this.db.param(1)} ORDER BY created_at, workstream_summary_id`,
      [assetId],
    );
    return rows.map((r) => r.id);
  }

  /** Of `ids`, those of live assets. */
  async liveAssets(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.db.query<{ id: string }>(
        em,
        `SELECT id FROM assets WHERE deleted_at IS NULL AND id IN (${this.db.params(part.length)})`,
        part,
      );
      for (const row of rows) out.add(row.id);
    }
    return out;
  }
}
