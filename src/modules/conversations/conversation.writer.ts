import { BadRequestException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { nowIso } from '../../common/wire/common.wire';
import { ConversationAnnotationEntity } from './conversation-annotation.entity';
import { ConversationMessageEntity } from './conversation-message.entity';

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
  if (text.includes('\u0000')) throw new BadRequestException(`${what} must not contain NUL characters`);
  return text;
}

/**
 * Writes messages and annotations inside the caller's transaction. Exported for the QGPT
 * stream, which stores each question and answer as messages of a conversation.
 */
@Injectable()
export class ConversationWriter {
  /** Appends messages after the conversation's last one; returns them in order. */
  async addMessages(em: EntityManager, conversationId: string, inputs: MessageInput[]): Promise<ConversationMessageEntity[]> {
    if (inputs.length === 0) return [];
    const last = await em
      .createQueryBuilder(ConversationMessageEntity, 'm')
      .select('MAX(m.position)', 'max')
      .where('m.conversation_id = :conversationId', { conversationId })
      .getRawOne<{ max: number | string | null }>();
    let position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
    const now = nowIso();
    const rows: ConversationMessageEntity[] = inputs.map((input) => ({
      id: randomUUID(),
      conversationId,
      position: position++,
      role: input.role,
      text: checkText(input.text, 'message text'),
      sentiment: input.sentiment ?? null,
      createdAt: input.createdAt ?? now,
      updatedAt: now,
      deletedAt: null,
    }) as ConversationMessageEntity);
    for (const row of rows) await em.insert(ConversationMessageEntity, row);
    return rows;
  }

  async addAnnotation(em: EntityManager, conversationId: string, input: AnnotationInput): Promise<ConversationAnnotationEntity> {
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
}
