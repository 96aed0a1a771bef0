import { GroupedTimestamp, Identified, groupedTimestamp, indexed } from '../../../common/wire/common.wire';
import {
  AnnotationWire,
  AssetAggregate,
  FlattenedAssetWire,
  WebsiteWire,
  flattenedAssetWire,
  websiteWire,
} from '../../assets/wire/asset.wire';
import type { WebsiteEntity } from '../../assets/website.entity';
import { AnchorEntity } from '../anchor.entity';
import { ConversationAnnotationEntity } from '../conversation-annotation.entity';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationEntity } from '../conversation.entity';
import { derivedId } from '../../../common/wire/derived-id';

/** A conversation with everything its wire form shows, loaded by ConversationReader. */
export interface ConversationAggregate {
  conversation: ConversationEntity;
  /** Every message (deleted ones too), in thread order. */
  messages: ConversationMessageEntity[];
  annotations: ConversationAnnotationEntity[];
  /** Linked live assets. */
  assets: AssetAggregate[];
  websites: WebsiteEntity[];
  anchors: AnchorEntity[];
  summaryIds: string[];
  rangeIds: string[];
  groundingMessageIds: string[];
}

export class ConversationScoreWire {
  manual: number;
  automatic: number;
  reuse: number;
  update: number;
  reference: number;
  priority: number;
  searched: number;
}
export class FlattenedConversationMessagesWire {
  iterable: Identified[];
  /** Message id -> order in the thread; -1 for a deleted message. */
  indices: Record<string, number>;
}
export class ConversationFlattenedAnnotationWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  type: string;
  text: string;
  mechanism: string;
  conversation: Identified;
}
/** GET /annotation/{annotation}: an annotation of an asset or of a conversation, with a reference to its owner. */
export class AnnotationOfRecordWire extends AnnotationWire {
  conversation?: Identified;
}
export class ConversationReferencedAnnotationWire {
  id: string;
  reference: ConversationFlattenedAnnotationWire;
}
export class ConversationFlattenedAnnotationsWire {
  iterable: ConversationReferencedAnnotationWire[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class ConversationReferencedAssetWire {
  id: string;
  reference: FlattenedAssetWire;
}
export class ConversationAssetsWire {
  iterable: ConversationReferencedAssetWire[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class ConversationReferencedWebsiteWire {
  id: string;
  reference: WebsiteWire;
}
export class ConversationWebsitesWire {
  iterable: ConversationReferencedWebsiteWire[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class AnchorPointReferenceWire {
  id: string;
  fullpath: string;
  anchor: Identified;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  /** PlatformEnum, when the path's platform was given. */
  platform?: string;
}
export class AnchorPointWire {
  id: string;
  reference: AnchorPointReferenceWire;
}
export class ConversationAnchorPointsWire {
  iterable: AnchorPointWire[];
  indices: Record<string, number>;
}
export class ConversationAnchorWire {
  id: string;
  type: string;
  name?: string;
  watch: boolean;
  points: ConversationAnchorPointsWire;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
}
export class ConversationReferencedAnchorWire {
  id: string;
  reference: ConversationAnchorWire;
}
export class ConversationAnchorsWire {
  iterable: ConversationReferencedAnchorWire[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class ConversationIdentifiersWire {
  iterable: Identified[];
  /** Id -> position in `iterable` (the official clients read a flattened collection through it). */
  indices: Record<string, number>;
}
export class ConversationTemporalGroundingWire {
  workstreams: ConversationIdentifiersWire;
}
export class ConversationGroundingWire {
  messages: ConversationIdentifiersWire;
  temporal: ConversationTemporalGroundingWire;
}

export class ConversationWire {
  id: string;
  /** Omitted while the conversation has no name. */
  name?: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  favorited: boolean;
  /** ConversationTypeEnum: UNKNOWN or COPILOT. */
  type: string;
  messages: FlattenedConversationMessagesWire;
  annotations: ConversationFlattenedAnnotationsWire;
  assets: ConversationAssetsWire;
  websites: ConversationWebsitesWire;
  anchors: ConversationAnchorsWire;
  summaries: ConversationIdentifiersWire;
  grounding: ConversationGroundingWire;
  score: ConversationScoreWire;
}
export class ConversationsWire {
  iterable: ConversationWire[];
  /** Paged listings only (Trove's `limit`/`cursor` extension): the cursor of the next page, null on the last. */
  next_cursor?: string | null;
}
export class FlattenedConversationsWire {
  iterable: Identified[];
  /** As ConversationsWire.next_cursor. */
  next_cursor?: string | null;
}

export class MessageFragmentStringWire {
  raw: string;
}
export class MessageFragmentWire {
  string: MessageFragmentStringWire;
}
export class ConversationMessageWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  /** Present once the message was deleted (its index is then -1). */
  deleted?: GroupedTimestamp;
  conversation: Identified;
  /** QGPTConversationMessageRoleEnum: UNKNOWN USER SYSTEM ASSISTANT. */
  role: string;
  sentiment?: string;
  /** The text; omitted when `transferables=false`. */
  fragment?: MessageFragmentWire;
}
export class ConversationMessagesWire {
  iterable: ConversationMessageWire[];
  indices: Record<string, number>;
}

export class ConversationsCreateFromAssetOutputWire {
  conversation: Identified;
}
export class ConversationSummarizeOutputWire {
  conversation: Identified;
  annotation: Identified;
}

/** Live messages get 0, 1, 2, ... in thread order; deleted ones -1. */
function messageIndices(messages: ConversationMessageEntity[]): Record<string, number> {
  const indices: Record<string, number> = {};
  let order = 0;
  for (const message of messages) indices[message.id] = message.deletedAt ? -1 : order++;
  return indices;
}

export function conversationMessageWire(
  message: ConversationMessageEntity,
  withContent: boolean,
): ConversationMessageWire {
  return {
    id: message.id,
    created: groupedTimestamp(message.createdAt),
    updated: groupedTimestamp(message.updatedAt),
    ...(message.deletedAt ? { deleted: groupedTimestamp(message.deletedAt) } : {}),
    conversation: { id: message.conversationId },
    role: message.role,
    ...(message.sentiment ? { sentiment: message.sentiment } : {}),
    ...(withContent ? { fragment: { string: { raw: message.text } } } : {}),
  };
}

export function conversationMessagesWire(
  messages: ConversationMessageEntity[],
  withContent: boolean,
): ConversationMessagesWire {
  return { iterable: messages.map((m) => conversationMessageWire(m, withContent)), indices: messageIndices(messages) };
}

export function conversationAnnotationWire(a: ConversationAnnotationEntity): ConversationFlattenedAnnotationWire {
  return {
    id: a.id,
    created: groupedTimestamp(a.createdAt),
    updated: groupedTimestamp(a.updatedAt),
    type: a.type,
    text: a.text,
    mechanism: a.mechanism,
    conversation: { id: a.conversationId },
  };
}

/**
 * An anchor (a file or directory) as clients read it: its path is the one point it has (Trove
 * keeps one path per anchor), whose id is derived from the anchor's so that it never changes.
 */
export function anchorWire(a: AnchorEntity): ConversationAnchorWire {
  const name = a.name ?? a.fullpath.split(/[\\/]/).filter(Boolean).pop();
  const point: AnchorPointWire = {
    id: derivedId('anchor-point', a.id),
    reference: {
      id: derivedId('anchor-point', a.id),
      fullpath: a.fullpath,
      anchor: { id: a.id },
      created: groupedTimestamp(a.createdAt),
      updated: groupedTimestamp(a.updatedAt),
      ...(a.platform ? { platform: a.platform } : {}),
    },
  };
  return {
    id: a.id,
    type: a.type,
    ...(name ? { name } : {}),
    watch: Boolean(a.watch),
    points: indexed([point]),
    created: groupedTimestamp(a.createdAt),
    updated: groupedTimestamp(a.updatedAt),
  };
}

function referencedAnchorWire(a: AnchorEntity): ConversationReferencedAnchorWire {
  return { id: a.id, reference: anchorWire(a) };
}

const ids = (list: string[]): ConversationIdentifiersWire => indexed(list.map((id) => ({ id })));

/** The complete Conversation every endpoint returns. */
export function conversationWire(aggregate: ConversationAggregate): ConversationWire {
  const c = aggregate.conversation;
  return {
    id: c.id,
    ...(c.name ? { name: c.name } : {}),
    created: groupedTimestamp(c.createdAt),
    updated: groupedTimestamp(c.updatedAt),
    favorited: Boolean(c.favorited),
    type: c.type,
    messages: { iterable: aggregate.messages.map((m) => ({ id: m.id })), indices: messageIndices(aggregate.messages) },
    annotations: indexed(aggregate.annotations.map((a) => ({ id: a.id, reference: conversationAnnotationWire(a) }))),
    assets: indexed(aggregate.assets.map((a) => ({ id: a.asset.id, reference: flattenedAssetWire(a) }))),
    websites: indexed(aggregate.websites.map((w) => ({ id: w.id, reference: websiteWire(w) }))),
    anchors: indexed(aggregate.anchors.map(referencedAnchorWire)),
    summaries: ids(aggregate.summaryIds),
    grounding: { messages: ids(aggregate.groundingMessageIds), temporal: { workstreams: ids(aggregate.rangeIds) } },
    score: {
      manual: c.scoreManual,
      automatic: c.scoreAutomatic,
      reuse: c.scoreReuse,
      update: c.scoreUpdate,
      reference: c.scoreReference,
      priority: c.scorePriority,
      searched: c.scoreSearched,
    },
  };
}
