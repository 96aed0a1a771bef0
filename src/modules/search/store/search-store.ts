import { EntityManager } from 'typeorm';
import { AssetFiltersDto } from '../dto/search-with-filters.dto';

/** What the index keeps about one asset (built by SearchIndex from the asset's rows). */
export interface IndexedDocument {
  assetId: string;
  pseudo: boolean;
  name: string;
  annotations: string;
  content: string;
  /** Normalised lowercase tag texts. */
  tags: string[];
  /** Lowercase "url name" lines. */
  websites: string[];
  /** Classification codes of the formats. */
  specifics: string[];
  createdAt: string;
  updatedAt: string;
}

/** The columns of `search_documents` both stores write, in the order of `documentValues`. */
export const DOCUMENT_COLUMNS =
  'asset_id, pseudo, name, annotations, content, tags, websites, specifics, created_at, updated_at';

/** A document's values for DOCUMENT_COLUMNS (`specifics` padded with spaces for whole-code matching). */
export function documentValues(doc: IndexedDocument): unknown[] {
  return [
    doc.assetId,
    doc.pseudo,
    doc.name,
    doc.annotations,
    doc.content,
    doc.tags.join('\n'),
    doc.websites.join('\n'),
    ` ${doc.specifics.join(' ')} `,
    doc.createdAt,
    doc.updatedAt,
  ];
}

/** Which indexed assets a query may return (conditions on the documents table). */
export interface Scope {
  /** Include pseudo assets. */
  pseudo: boolean;
  /** Only these asset ids. */
  space?: string[];
  /** Never these asset ids. */
  exclude?: string[];
  /** At least one of these (normalised lowercase) tags. */
  anyTags?: string[];
  filters?: AssetFiltersDto;
  /** Phrase filters are case-sensitive. */
  casing?: boolean;
}

/**
 * A word query: every group must match (AND) or any (OR); a group matches when any of its
 * alternatives does; an alternative is a phrase of one or more terms.
 */
export type WordQuery = string[][][];

/** Storage and retrieval of the index, one implementation per dialect. */
export interface SearchStore {
  /** `created`: the asset was created in this transaction, so there is nothing to replace. */
  write(em: EntityManager, doc: IndexedDocument, terms: IndexTerms, created: boolean): Promise<void>;
  /** Adds terms to the vocabulary (those it has are left as they are): `write` does it for its document's terms. */
  addVocabulary(em: EntityManager, terms: string[]): Promise<void>;
  remove(em: EntityManager, assetId: string): Promise<void>;
  /** Asset ids matching a word query, best first. */
  words(em: EntityManager, query: WordQuery, mode: 'AND' | 'OR', scope: Scope, limit: number): Promise<string[]>;
  /** Asset ids holding, for every term, a word that starts with it (`safe_lo` -> `safe_load`), best first. */
  prefixes(em: EntityManager, terms: string[], scope: Scope, limit: number): Promise<string[]>;
  /** Asset ids whose name or first part of text contains every needle (>= 3 characters), best first. */
  substrings(em: EntityManager, needles: string[], scope: Scope, limit: number): Promise<string[]>;
  /** Assets having at least one of the tags, with how many of them. */
  tags(em: EntityManager, tags: string[], scope: Scope, limit: number): Promise<Array<{ id: string; count: number }>>;
  /** Assets in scope, most recently updated first (no query). */
  recent(em: EntityManager, scope: Scope, limit: number): Promise<string[]>;
  /** How many live indexed documents contain each term (0 or absent when none). */
  documentFrequency(em: EntityManager, terms: string[]): Promise<Map<string, number>>;
  /** Number of indexed documents. */
  documentCount(em: EntityManager): Promise<number>;
  /** The version of the text analysis the index was written with (`search_analysis`). */
  analysisVersion(em: EntityManager): Promise<number>;
  /** Records that the whole index is now written with analysis `version`. */
  recordAnalysis(em: EntityManager, version: number): Promise<void>;
  /** Vocabulary terms sharing the prefix or the suffix (lengths within the bounds). */
  vocabularyNear(
    em: EntityManager,
    prefix: string,
    suffix: string,
    minLength: number,
    maxLength: number,
  ): Promise<string[]>;
  /** The stored documents of these assets (for key terms). */
  documents(
    em: EntityManager,
    ids: string[],
  ): Promise<Map<string, { name: string; annotations: string; content: string; tags: string }>>;
  /** Of `ids` (at most 500), those that have an indexed document: for finding live assets the index misses. */
  indexed(em: EntityManager, ids: string[]): Promise<Set<string>>;
}

/** The analysed text of a document, as written to the full-text tables. */
export interface IndexTerms {
  name: string;
  annotations: string;
  tags: string;
  websites: string;
  content: string;
  /** The lowercase first part of the text, for substring search (with the name). */
  head: string;
  vocabulary: string[];
}
