import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, IsNull } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import { incrementColumns } from '../../common/database/entity-rows';
import { InvalidInput } from '../../common/errors/domain-errors';
import { nowIso } from '../../common/wire/common.wire';
import { AnchorEntity } from './anchor.entity';
import { ConversationAnnotationEntity } from './conversation-annotation.entity';
import { ConversationGroundingMessageEntity } from './conversation-link.entity';
import { JOIN_ENTITIES, LINKS, LinkKind } from './conversation-links';
import { ConversationMessageEntity } from './conversation-message.entity';
import { ConversationEntity } from './conversation.entity';
import { RangeEntity } from './range.entity';

export interface MessageInput {
  role: string;
  text: string;
  sentiment?: string | null;
  /** ISO timestamp; now when omitted. */
  createdAt?: string;
}
export interface AnnotationInput {
  type: string;
  text: string;
  mechanism?: string;
}

export function checkText(text: string, what: string): string {
  if (text.includes('\u0000')) throw new InvalidInput(`${what} must not contain NUL characters`);
  return text;
}

/**
 * Every write to the conversations module's tables, inside the caller's transaction (commands
 * run it through ConversationUnitOfWork): conversations, their messages, annotations, anchors
 * and the join rows of their links (one row is both sides of a link).
 */
@Injectable()
export class ConversationWriter {
  /** A new conversation's row (its messages and links refer to it: write it first). */
  async insertConversation(em: EntityManager, row: ConversationEntity): Promise<void> {
    await em.insert(ConversationEntity, row);
  }

  /** The conversation's own fields (name, type, favorited, updated). */
  async updateConversation(
    em: EntityManager,
    id: string,
    changes: Partial<Pick<ConversationEntity, 'name' | 'type' | 'favorited' | 'updatedAt'>>,
  ): Promise<void> {
    await em.update(ConversationEntity, { id }, changes);
  }

  /** Names a conversation that has no name yet (a chat is named after its first question); a name given meanwhile wins. */
  async nameIfUnnamed(em: EntityManager, conversationId: string, name: string): Promise<void> {
    if (name) await em.update(ConversationEntity, { id: conversationId, name: IsNull() }, { name });
  }

  /** Adds to the named counters (entity properties) in one relative UPDATE: concurrent increments add up instead of overwriting each other. */
  incrementScores(em: EntityManager, id: string, counters: Record<string, number>): Promise<void> {
    return incrementColumns(em, ConversationEntity, id, counters);
  }

  /**
   * Empties a deleted conversation: its messages (and the grounding other conversations drew
   * from them), annotations and links, both sides (the join rows are the links); keeps its row as
   * a tombstone, so later reads answer 410.
   */
  async tombstone(em: EntityManager, id: string): Promise<void> {
    await em
      .createQueryBuilder()
      .delete()
      .from(ConversationGroundingMessageEntity)
      .where(`message_id IN (SELECT id FROM conversation_messages WHERE conversation_id = :conversationId)`, {
        conversationId: id,
      })
      .execute();
    for (const entity of JOIN_ENTITIES) await em.delete(entity, { conversationId: id });
    await em.delete(ConversationAnnotationEntity, { conversationId: id });
    await em.delete(ConversationMessageEntity, { conversationId: id });
    const now = nowIso();
    await em.update(ConversationEntity, { id }, { deletedAt: now, updatedAt: now, name: null });
  }

  /** Appends messages after the conversation's last one; returns them in order. */
  async addMessages(
    em: EntityManager,
    conversationId: string,
    inputs: MessageInput[],
  ): Promise<ConversationMessageEntity[]> {
    if (inputs.length === 0) return [];
    const last = await em
      .createQueryBuilder(ConversationMessageEntity, 'm')
      .select('MAX(m.position)', 'max')
      .where('m.conversation_id = :conversationId', { conversationId })
      .getRawOne<{ max: number | string | null }>();
    let position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    const now = nowIso();
    const rows: ConversationMessageEntity[] = inputs.map(
      (input) =>
        ({
          id: randomUUID(),
          conversationId,
          position: position++,
          role: input.role,
          text: checkText(input.text, 'message text'),
          sentiment: input.sentiment ?? null,
          createdAt: input.createdAt ?? now,
          updatedAt: now,
          deletedAt: null,
        }) as ConversationMessageEntity,
    );
    for (const row of rows) await em.insert(ConversationMessageEntity, row);
    return rows;
  }

  /** A message's text, sentiment, place in the thread or deletion (a tombstone: `deletedAt`). */
  async updateMessage(
    em: EntityManager,
    id: string,
    patch: Partial<Pick<ConversationMessageEntity, 'text' | 'sentiment' | 'position' | 'deletedAt' | 'updatedAt'>>,
  ): Promise<void> {
    await em.update(ConversationMessageEntity, { id }, patch);
  }

  async addAnnotation(
    em: EntityManager,
    conversationId: string,
    input: AnnotationInput,
  ): Promise<ConversationAnnotationEntity> {
    const now = nowIso();
    const row = {
      id: randomUUID(),
      conversationId,
      type: input.type,
      text: checkText(input.text, 'annotation text'),
      mechanism: input.mechanism ?? 'MANUAL',
      createdAt: now,
      updatedAt: now,
    } as ConversationAnnotationEntity;
    await em.insert(ConversationAnnotationEntity, row);
    return row;
  }

  async updateAnnotation(
    em: EntityManager,
    id: string,
    patch: Pick<ConversationAnnotationEntity, 'text' | 'type' | 'updatedAt'>,
  ): Promise<void> {
    await em.update(ConversationAnnotationEntity, { id }, patch);
  }

  async deleteAnnotations(em: EntityManager, ids: string[]): Promise<void> {
    for (const part of chunks(ids)) await em.delete(ConversationAnnotationEntity, { id: In(part) });
  }

  /** A new anchor (a file or directory). */
  async insertAnchor(em: EntityManager, row: AnchorEntity): Promise<void> {
    await em.insert(AnchorEntity, row);
  }

  /** Links the conversation and a record (the caller knows they are not linked yet). */
  async link(
    em: EntityManager,
    kind: LinkKind,
    conversationId: string,
    targetId: string,
    createdAt: string,
  ): Promise<void> {
    const spec = LINKS[kind];
    await em.insert(spec.join, { conversationId, [spec.column]: targetId, createdAt });
  }

  /**
   * Links (`link` true) or unlinks the conversation and a record, the conversation's `updated`
   * set; false when it already was so (nothing written).
   */
  async changeLink(
    em: EntityManager,
    kind: LinkKind,
    conversationId: string,
    targetId: string,
    link: boolean,
  ): Promise<boolean> {
    const spec = LINKS[kind];
    const key = { conversationId, [spec.column]: targetId };
    if ((await em.exists(spec.join, { where: key })) === link) return false;
    const now = nowIso();
    if (link) await this.link(em, kind, conversationId, targetId, now);
    else await em.delete(spec.join, key);
    await em.update(ConversationEntity, { id: conversationId }, { updatedAt: now });
    return true;
  }

  /** Every conversation's link to the record (asset, website, workstream summary, anchor, range). */
  async removeLinksTo(
    em: EntityManager,
    kind: 'asset' | 'workstream_summary' | 'website' | 'anchor' | 'range',
    id: string,
  ): Promise<void> {
    const { join, column } = LINKS[kind];
    await em.delete(join, { [column]: id });
  }

  /** An anchor's own fields (POST /anchor/update, /anchor/{anchor}/rename). */
  async updateAnchor(
    em: EntityManager,
    id: string,
    patch: Partial<Pick<AnchorEntity, 'name' | 'type' | 'fullpath' | 'watch' | 'platform'>>,
  ): Promise<void> {
    await em.update(AnchorEntity, { id }, { ...patch, updatedAt: nowIso() });
  }

  async deleteAnchor(em: EntityManager, id: string): Promise<void> {
    await em.delete(AnchorEntity, { id });
  }

  /** A new range (a span of time conversations can be grounded in). */
  async insertRange(em: EntityManager, row: RangeEntity): Promise<void> {
    await em.insert(RangeEntity, row);
  }

  async updateRange(
    em: EntityManager,
    id: string,
    patch: Partial<Pick<RangeEntity, 'fromAt' | 'toAt' | 'continuous'>>,
  ): Promise<void> {
    await em.update(RangeEntity, { id }, { ...patch, updatedAt: nowIso() });
  }

  async deleteRange(em: EntityManager, id: string): Promise<void> {
    await em.delete(RangeEntity, { id });
  }

  /** Marks the conversations updated (a record linked to them changed). */
  async touchConversations(em: EntityManager, ids: string[]): Promise<void> {
    const now = nowIso();
    for (const part of chunks(ids)) await em.update(ConversationEntity, { id: In(part) }, { updatedAt: now });
  }
}
