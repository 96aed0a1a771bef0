import { GroupedTimestamp, groupedTimestamp } from '../../../common/wire/common.wire';
import { FlattenedIdsWire, flattenedIds } from '../../assets/wire/records.wire';
import { AnchorEntity } from '../anchor.entity';
import { RangeEntity } from '../range.entity';
import {
  AnchorPointReferenceWire,
  ConversationAnchorWire,
  ConversationMessageWire,
  anchorWire,
} from './conversation.wire';

/**
 * The records conversations are grounded in, read as records of their own (GET /anchor/{anchor},
 * GET /anchors, GET /range/{range}, ...): what a conversation shows of them, with the live
 * conversations linked to them (both sides of each link).
 */
export class AnchorRecordWire extends ConversationAnchorWire {
  conversations: FlattenedIdsWire;
}
export class AnchorRecordsWire {
  iterable: AnchorRecordWire[];
}
/** An anchor's point read on its own: its path, and the anchor it belongs to. */
export class AnchorPointRecordWire extends AnchorPointReferenceWire {}
export class AnchorPointRecordsWire {
  iterable: AnchorPointRecordWire[];
}
export class RangeWire {
  id: string;
  created: GroupedTimestamp;
  updated: GroupedTimestamp;
  /** Omitted for a range open at its start. */
  from?: GroupedTimestamp;
  /** Omitted for a range open at its end. */
  to?: GroupedTimestamp;
  /** Whether the range is the span between `from` and `to` (SeededRange.between). */
  between: boolean;
  conversations: FlattenedIdsWire;
}
export class RangesWire {
  iterable: RangeWire[];
}
/** GET /messages: messages of many conversations (each message's conversation says whose), without `indices`. */
export class MessagesWire {
  iterable: ConversationMessageWire[];
}

export function anchorRecordWire(anchor: AnchorEntity, conversationIds: string[]): AnchorRecordWire {
  return { ...anchorWire(anchor), conversations: flattenedIds(conversationIds) };
}

/** The one point of an anchor (its path), as AnchorPoint. */
export function anchorPointRecordWire(anchor: AnchorEntity): AnchorPointRecordWire {
  return anchorWire(anchor).points.iterable[0].reference;
}

export function rangeWire(range: RangeEntity, conversationIds: string[]): RangeWire {
  return {
    id: range.id,
    created: groupedTimestamp(range.createdAt),
    updated: groupedTimestamp(range.updatedAt),
    ...(range.fromAt ? { from: groupedTimestamp(range.fromAt) } : {}),
    ...(range.toAt ? { to: groupedTimestamp(range.toAt) } : {}),
    between: Boolean(range.continuous),
    conversations: flattenedIds(conversationIds),
  };
}
