import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AssetEntity } from '../assets/asset.entity';
import { WebsiteEntity } from '../assets/website.entity';
import { WorkstreamSummaryEntity } from '../assets/workstream-summary.entity';
import { AnchorEntity } from './anchor.entity';
import { ConversationMessageEntity } from './conversation-message.entity';
import { ConversationEntity } from './conversation.entity';
import { RangeEntity } from './range.entity';

/*
 * Join rows between a conversation and what it is linked to. One row is both sides of
 * the link: the conversation lists it, the other side's listing (GET /asset/{asset}/
 * conversations, ...) reads the same row. The records on the other side that belong to the
 * assets module (assets, websites, workstream summaries) are referenced here for the foreign
 * keys only: they are read through its AssetReader by the ids of these rows, never joined.
 */

@Entity('conversation_assets')
@Index('conversation_assets_asset', ['assetId'])
export class ConversationAssetEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 36 })
  assetId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset: AssetEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}

@Entity('conversation_websites')
export class ConversationWebsiteEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'website_id', type: 'varchar', length: 36 })
  websiteId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => WebsiteEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'website_id' })
  website: WebsiteEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}

@Entity('conversation_anchors')
export class ConversationAnchorEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'anchor_id', type: 'varchar', length: 36 })
  anchorId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => AnchorEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'anchor_id' })
  anchor: AnchorEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}

@Entity('conversation_workstream_summaries')
export class ConversationWorkstreamSummaryEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'workstream_summary_id', type: 'varchar', length: 36 })
  workstreamSummaryId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => WorkstreamSummaryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workstream_summary_id' })
  summary: WorkstreamSummaryEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}

/** Grounding: the temporal ranges (workstreams) a conversation draws on. */
@Entity('conversation_grounding_ranges')
export class ConversationGroundingRangeEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'range_id', type: 'varchar', length: 36 })
  rangeId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => RangeEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'range_id' })
  range: RangeEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}

/** Grounding: messages (of any conversation) a conversation draws on. */
@Entity('conversation_grounding_messages')
@Index('conversation_grounding_messages_message', ['messageId'])
export class ConversationGroundingMessageEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @PrimaryColumn({ name: 'message_id', type: 'varchar', length: 36 })
  messageId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @ManyToOne(() => ConversationMessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message: ConversationMessageEntity;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
