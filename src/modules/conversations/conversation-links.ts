import { ObjectLiteral } from 'typeorm';
import {
  ConversationAnchorEntity,
  ConversationAssetEntity,
  ConversationGroundingMessageEntity,
  ConversationGroundingRangeEntity,
  ConversationWebsiteEntity,
  ConversationWorkstreamSummaryEntity,
} from './conversation-link.entity';

/** What a conversation can be linked to, each through its own join table. */
export type LinkKind = 'anchor' | 'asset' | 'website' | 'workstream_summary' | 'range' | 'message';

export interface LinkSpec {
  /** The join entity; its key columns are `conversationId` and `column`. */
  join: new () => ObjectLiteral;
  column: string;
  /** What the other side is called in messages ("anchor 42 not found"). */
  what: string;
}

/**
 * The join table of each kind of link. Whether the other side exists is asked of its owner
 * (ConversationReader.requireLinkTarget): anchors, ranges and messages are this module's,
 * assets, websites and workstream summaries the assets module's.
 */
export const LINKS: Record<LinkKind, LinkSpec> = {
  anchor: { join: ConversationAnchorEntity, column: 'anchorId', what: 'anchor' },
  asset: { join: ConversationAssetEntity, column: 'assetId', what: 'asset' },
  website: { join: ConversationWebsiteEntity, column: 'websiteId', what: 'website' },
  workstream_summary: {
    join: ConversationWorkstreamSummaryEntity,
    column: 'workstreamSummaryId',
    what: 'workstream summary',
  },
  range: { join: ConversationGroundingRangeEntity, column: 'rangeId', what: 'range' },
  message: { join: ConversationGroundingMessageEntity, column: 'messageId', what: 'message' },
};

/** Every join entity, for removing all of a conversation's links at once. */
export const JOIN_ENTITIES = Object.values(LINKS).map((l) => l.join);
