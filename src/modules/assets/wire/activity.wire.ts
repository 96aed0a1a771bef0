import { GroupedTimestamp, Identified, groupedTimestamp } from '../../../common/wire/common.wire';
import { ApplicationWire, applicationWire } from '../../system/wire/application.wire';
import { ActivityEntity } from '../activity.entity';
import { ActivityKind } from '../events/asset-activity.event';
import { AssetAggregate, FlattenedAssetWire, flattenedAssetWire } from './asset.wire';

/** SeededTrackedAssetEvent: the asset and one `identifier_description_pair`. */
export class TrackedAssetEventWire {
  asset: Identified;
  /** e.g. `{"asset_viewed": "an_asset_was_viewed"}` (TrackedAssetEventIdentifierDescriptionPairs). */
  identifier_description_pair: Record<string, string>;
  /** TrackedAssetEventMetadata: `tag`, `website`, `reclassification`, ... when the event has details. */
  metadata?: Record<string, unknown>;
}

/** SeededTrackedAssetsEvent: a search that returned the asset. */
export class TrackedAssetsEventWire {
  identifier_description_pair: Record<string, string>;
  metadata?: Record<string, unknown>;
}

/** SeededConnectorTracking: one kind of event (`asset` or `assets` for Trove's own; any kind a client reported). */
export class TrackedEventWire {
  asset?: TrackedAssetEventWire;
  assets?: TrackedAssetsEventWire;
  format?: Record<string, unknown>;
  interaction?: Record<string, unknown>;
  keyboard?: Record<string, unknown>;
  session?: Record<string, unknown>;
  ml?: Record<string, unknown>;
  adoption?: Record<string, unknown>;
  conversation?: Record<string, unknown>;
  conversation_message?: Record<string, unknown>;
  workstream_summary?: Record<string, unknown>;
}

export class ActivityWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  event: TrackedEventWire;
  application: ApplicationWire;
  mechanism: string;
  /** The asset the activity is about, when there is one (and it is live). */
  asset?: FlattenedAssetWire;
}

export class ActivitiesWire {
  iterable: ActivityWire[];
}

/** Each kind as the SDK's TrackedAssetEventIdentifierDescriptionPairs spells it. */
const PAIRS: Record<Exclude<ActivityKind, 'searched'>, [string, string]> = {
  created: ['asset_created', 'an_asset_was_created'],
  updated: ['asset_updated', 'an_asset_was_updated'],
  viewed: ['asset_viewed', 'an_asset_was_viewed'],
  exported: ['asset_format_downloaded', 'an_asset_format_was_downloaded'],
  reclassified: [
    'asset_format_specific_classification_updated',
    'a_specific_classification_was_changed_on_a_format_within_an_asset',
  ],
  scored: ['asset_referenced', 'an_asset_was_referenced_by_the_user'],
  tag_added: ['asset_tag_added', 'a_tag_was_added_by_the_user'],
  tag_removed: ['asset_tag_deleted', 'a_tag_was_deleted_by_the_user'],
  website_added: ['asset_link_added', 'a_link_was_added_by_the_user'],
  website_removed: ['asset_link_deleted', 'a_link_was_deleted_by_the_user'],
  // The SDK has no pair for workstream summaries on an asset: they are asset updates.
  summary_added: ['asset_updated', 'an_asset_was_updated'],
  summary_removed: ['asset_updated', 'an_asset_was_updated'],
  // Replaced by the pair the integration sent, when it sent one.
  tracked: ['asset_referenced', 'an_asset_was_referenced_by_the_user'],
  reported: ['asset_referenced', 'an_asset_was_referenced_by_the_user'],
};

/** The `identifier_description_pair` an integration tracked, when it is one (strings only). */
function trackedPair(stored: Record<string, unknown>): Record<string, string> | undefined {
  const pair = stored.pair;
  if (!pair || typeof pair !== 'object' || Array.isArray(pair)) return undefined;
  const entries = Object.entries(pair).filter(([, v]) => typeof v === 'string');
  return entries.length ? (Object.fromEntries(entries) as Record<string, string>) : undefined;
}

/** TrackedAssetEventMetadata from what the recorder stored (only the fields the SDK knows). */
function assetMetadata(kind: ActivityKind, stored: Record<string, unknown>): Record<string, unknown> | undefined {
  if ((kind === 'tag_added' || kind === 'tag_removed') && typeof stored.tag === 'string')
    return { tag: { id: stored.tag } };
  if ((kind === 'website_added' || kind === 'website_removed') && typeof stored.website === 'string')
    return { website: { id: stored.website } };
  if (kind === 'reclassified' && stored.previous && stored.current) {
    return { reclassification: { previous: stored.previous, current: stored.current } };
  }
  return undefined;
}

function trackedEvent(row: ActivityEntity): TrackedEventWire {
  const kind = row.event as ActivityKind;
  const stored = row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {};
  if (kind === 'reported' && stored.event && typeof stored.event === 'object') return stored.event as TrackedEventWire;
  if (kind === 'searched') {
    return {
      assets: {
        identifier_description_pair: { assets_searched: 'assets_were_searched' },
        ...(typeof stored.query === 'string' ? { metadata: { search: { query: stored.query } } } : {}),
      },
    };
  }
  const [key, description] = PAIRS[kind] ?? PAIRS.updated;
  const pair = (kind === 'tracked' && trackedPair(stored)) || { [key]: description };
  const metadata = assetMetadata(kind, stored);
  return {
    asset: { asset: { id: row.assetId ?? '' }, identifier_description_pair: pair, ...(metadata ? { metadata } : {}) },
  };
}

/**
 * `row.application` must be loaded. A search's activity is an `assets` event (SeededTrackedAssetsEvent:
 * assets were searched), which names no asset, so it carries none either: clients read `asset`
 * together with an `asset` event (example-typescript's activity list reads
 * `event.asset.identifier_description_pair` of every activity that has one).
 */
export function activityWire(row: ActivityEntity, asset: AssetAggregate | undefined): ActivityWire {
  return {
    id: row.id,
    created: groupedTimestamp(row.createdAt),
    updated: groupedTimestamp(row.createdAt),
    event: trackedEvent(row),
    application: applicationWire(row.application),
    mechanism: row.mechanism,
    ...(asset && row.event !== 'searched' ? { asset: flattenedAssetWire(asset) } : {}),
  };
}
