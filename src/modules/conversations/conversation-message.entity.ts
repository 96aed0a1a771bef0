import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ConversationEntity } from './conversation.entity';

/**
 * One message of a conversation. `position` orders the thread; a message marked deleted
 * (`deletedAt`) stays, with index -1 in `messages.indices`, until its conversation goes.
 */
@Entity('conversation_messages')
@Index('conversation_messages_order', ['conversationId', 'position'])
@Index('conversation_messages_listing', ['createdAt', 'id'])
export class ConversationMessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  @Column({ type: 'integer' })
  position: number;

  /** QGPTConversationMessageRoleEnum: UNKNOWN USER SYSTEM ASSISTANT. */
  @Column({ type: 'varchar', length: 16 })
  role: string;

  /** The message text (`fragment.string.raw`). */
  @Column({ type: 'text' })
  text: string;

  /** ConversationMessageSentimentEnum, when the user gave one. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  sentiment: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;

  @Column({ name: 'deleted_at', type: 'varchar', length: 30, nullable: true })
  deletedAt: string | null;
}
