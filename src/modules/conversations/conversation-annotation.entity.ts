import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ConversationEntity } from './conversation.entity';

/** A summary, description, comment, ... attached to a conversation. */
@Entity('conversation_annotations')
@Index('conversation_annotations_conversation', ['conversationId'])
@Index('conversation_annotations_listing', ['createdAt', 'id'])
export class ConversationAnnotationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'conversation_id', type: 'varchar', length: 36 })
  conversationId: string;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation: ConversationEntity;

  /** AnnotationTypeEnum. */
  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ type: 'text' })
  text: string;

  /** MechanismEnum: MANUAL for the user's own, AUTOMATIC for generated summaries. */
  @Column({ type: 'varchar', length: 16 })
  mechanism: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
