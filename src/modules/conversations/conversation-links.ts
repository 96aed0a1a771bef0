import { NotFoundException } from '@nestjs/common';
import { EntityManager, ObjectLiteral } from 'typeorm';
import { AssetEntity } from '../assets/asset.entity';
import { AssetReader } from '../assets/asset.reader';
import { WebsiteEntity } from '../assets/website.entity';
import { WorkstreamSummaryEntity } from '../assets/workstream-summary.entity';
import { AnchorEntity } from './anchor.entity';
import {
  ConversationAnchorEntity,
  ConversationAssetEntity,
  ConversationGroundingMessageEntity,
  ConversationGroundingRangeEntity,
  ConversationWebsiteEntity,
  ConversationWorkstreamSummaryEntity,
} from './conversation-link.entity';
import { ConversationMessageEntity } from './conversation-message.entity';
import { RangeEntity } from './range.entity';

/** What a conversation can be linked to, each through its own join table. */
export type LinkKind = 'anchor' | 'asset' | 'website' | 'workstream_summary' | 'range' | 'message';

export interface LinkSpec {
  /** The join entity; its key columns are `conversationId` and `column`. */
  join: new () => ObjectLiteral;
  column: string;
  what: string;
  /** 404 when the other side does not exist; `forLink` also refuses what can no longer be linked (410). */
  check(em: EntityManager, id: string, forLink: boolean, assets: AssetReader): Promise<void>;
}

function exists(entity: new () => ObjectLiteral, what: string): LinkSpec['check'] {
  return async (em, id) => {
    if (!(await em.exists(entity, { where: { id } }))) throw new NotFoundException(`${what} ${id} not found`);
  };
}

export const LINKS: Record<LinkKind, LinkSpec> = {
  anchor: { join: ConversationAnchorEntity, column: 'anchorId', what: 'anchor', check: exists(AnchorEntity, 'anchor') },
  asset: {
    join: ConversationAssetEntity,
    column: 'assetId',
    what: 'asset',
    check: async (em, id, forLink, assets) => {
      if (forLink) await assets.require(em, id);
      else if (!(await em.exists(AssetEntity, { where: { id } }))) throw new NotFoundException(`asset ${id} not found`);
    },
  },
  website: { join: ConversationWebsiteEntity, column: 'websiteId', what: 'website', check: exists(WebsiteEntity, 'website') },
  workstream_summary: {
    join: ConversationWorkstreamSummaryEntity,
    column: 'workstreamSummaryId',
    what: 'workstream summary',
    check: exists(WorkstreamSummaryEntity, 'workstream summary'),
  },
  range: { join: ConversationGroundingRangeEntity, column: 'rangeId', what: 'range', check: exists(RangeEntity, 'range') },
  message: { join: ConversationGroundingMessageEntity, column: 'messageId', what: 'message', check: exists(ConversationMessageEntity, 'message') },
};

/** Every join entity, for removing all of a conversation's links at once. */
export const JOIN_ENTITIES = Object.values(LINKS).map((l) => l.join);
