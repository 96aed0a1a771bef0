import type { StreamTopicName } from '../../common/events/outbox';

/**
 * Where a kind's records stand in an export:
 * - `shared`: records others refer to (applications, custom models, tags, websites, memories,
 *   anchors, ranges), each kind walked whole, in primary-key order;
 * - `asset` / `conversation`: one group per asset (conversation), in id order: the root record
 *   followed by the records that belong to it (formats, annotations, links, ...), so that a
 *   batch of an import holds whole groups and never leaves an asset without its formats;
 * - `trailing`: records that refer across groups (messages grounding another conversation) or
 *   that nothing reads as part of their owner (activities, connector events and intentions).
 */
export type Section = 'shared' | 'asset' | 'conversation' | 'trailing';

/** One kind of record in the export format: one table, or the rows of a table that a condition selects. */
export interface KindSpec {
  /** The name in `{"kind": ...}`. */
  readonly kind: string;
  readonly table: string;
  readonly section: Section;
  /** Group members: the column naming their root (asset or conversation), and the columns ordering them after it. */
  readonly member?: { column: string; order: string[] };
  /** Walked kinds: the columns of their keyset, in order (their primary key). */
  readonly walk?: string[];
  /** A constant condition choosing the rows exported (a constant of the code). */
  readonly where?: string;
  /** Another table's unique key besides the id: an existing record with that key is used instead of the imported one. */
  readonly natural?: string[];
  /** Columns naming a record of a kind with a natural key: rewritten when that record was matched to an existing one. */
  readonly refers?: Readonly<Record<string, string>>;
  /** Records of this kind that an import creates are announced on this change stream. */
  readonly topic?: StreamTopicName;
}

/**
 * Every kind of record the store holds that belongs to its user, in the order an export writes
 * them (and an import inserts them: a record always comes after the ones it refers to).
 *
 * Left out, deliberately: `idempotency_keys` (retries of one request, expire), `settings` (this
 * installation's own values), `stream_events` (the change-stream outbox), `mcp_sessions` and
 * `mcp_relay` (open connections), the search index and the memories' full-text table (derived:
 * an import indexes what it creates), and discovered models (a provider's listing, recorded again
 * by every store under the same derived ids). docs/TRANSFER.md says the same.
 */
export const KINDS: readonly KindSpec[] = [
  {
    kind: 'application',
    table: 'applications',
    section: 'shared',
    walk: ['id'],
    natural: ['name', 'version', 'platform'],
  },
  {
    kind: 'model',
    table: 'models',
    section: 'shared',
    walk: ['id'],
    where: 'custom = TRUE',
    natural: ['fingerprint'],
    refers: { base_model_id: 'model' },
    topic: 'models',
  },
  { kind: 'tag', table: 'tags', section: 'shared', walk: ['id'], natural: ['text'] },
  { kind: 'website', table: 'websites', section: 'shared', walk: ['id'], natural: ['url'] },
  {
    kind: 'workstream_summary',
    table: 'workstream_summaries',
    section: 'shared',
    walk: ['id'],
    topic: 'workstream_summaries',
  },
  { kind: 'anchor', table: 'anchors', section: 'shared', walk: ['id'] },
  { kind: 'range', table: 'ranges', section: 'shared', walk: ['id'] },

  { kind: 'asset', table: 'assets', section: 'asset', walk: ['id'], topic: 'assets' },
  {
    kind: 'format',
    table: 'formats',
    section: 'asset',
    member: { column: 'asset_id', order: ['position', 'id'] },
    refers: { application_id: 'application' },
  },
  { kind: 'annotation', table: 'annotations', section: 'asset', member: { column: 'asset_id', order: ['id'] } },
  {
    kind: 'asset_tag',
    table: 'asset_tags',
    section: 'asset',
    member: { column: 'asset_id', order: ['tag_id'] },
    refers: { tag_id: 'tag' },
  },
  {
    kind: 'asset_website',
    table: 'asset_websites',
    section: 'asset',
    member: { column: 'asset_id', order: ['website_id'] },
    refers: { website_id: 'website' },
  },
  {
    kind: 'asset_workstream_summary',
    table: 'asset_workstream_summaries',
    section: 'asset',
    member: { column: 'asset_id', order: ['workstream_summary_id'] },
  },
  { kind: 'asset_enrichment', table: 'asset_enrichments', section: 'asset', member: { column: 'asset_id', order: [] } },

  { kind: 'conversation', table: 'conversations', section: 'conversation', walk: ['id'], topic: 'conversations' },
  {
    kind: 'conversation_message',
    table: 'conversation_messages',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['position', 'id'] },
  },
  {
    kind: 'conversation_annotation',
    table: 'conversation_annotations',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['id'] },
  },
  {
    kind: 'conversation_asset',
    table: 'conversation_assets',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['asset_id'] },
  },
  {
    kind: 'conversation_website',
    table: 'conversation_websites',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['website_id'] },
    refers: { website_id: 'website' },
  },
  {
    kind: 'conversation_anchor',
    table: 'conversation_anchors',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['anchor_id'] },
  },
  {
    kind: 'conversation_workstream_summary',
    table: 'conversation_workstream_summaries',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['workstream_summary_id'] },
  },
  {
    kind: 'conversation_grounding_range',
    table: 'conversation_grounding_ranges',
    section: 'conversation',
    member: { column: 'conversation_id', order: ['range_id'] },
  },

  // Grounding messages may belong to a later conversation: after every conversation.
  {
    kind: 'conversation_grounding_message',
    table: 'conversation_grounding_messages',
    section: 'trailing',
    walk: ['conversation_id', 'message_id'],
  },
  {
    kind: 'activity',
    table: 'activities',
    section: 'trailing',
    walk: ['id'],
    refers: { application_id: 'application' },
  },
  {
    kind: 'connector_intention',
    table: 'connector_intentions',
    section: 'trailing',
    walk: ['id'],
    refers: { application_id: 'application' },
  },
  {
    kind: 'connector_event',
    table: 'connector_events',
    section: 'trailing',
    walk: ['id'],
    refers: { application_id: 'application' },
  },
];

/** Annotations belong to their asset's group; the rare one of no asset (`asset_id` null) is written after every group. */
export const ORPHAN_ANNOTATIONS: KindSpec = {
  kind: 'annotation',
  table: 'annotations',
  section: 'trailing',
  walk: ['id'],
  where: 'asset_id IS NULL',
};

export const KIND_BY_NAME: ReadonlyMap<string, KindSpec> = new Map(KINDS.map((k) => [k.kind, k]));

/** The root kind of each group section. */
export const GROUP_ROOT: Readonly<Record<'asset' | 'conversation', string>> = {
  asset: 'asset',
  conversation: 'conversation',
};

/** Kinds in the order of the export (and of inserting an import batch), one name each. */
export const KIND_NAMES: readonly string[] = KINDS.map((k) => k.kind);
