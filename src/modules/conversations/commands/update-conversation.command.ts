import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager, In } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { ConversationAnnotationEntity } from '../conversation-annotation.entity';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationReader } from '../conversation.reader';
import { checkText } from '../conversation.writer';
import { ConversationEntity } from '../conversation.entity';
import { ConversationDto, isOrder } from '../dto/conversation.dto';
import { ConversationChangedEvent } from '../events/conversation-changed.event';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';

/**
 * Applies a round-tripped Conversation: name (null clears it), type, favorited,
 * annotations (kept, edited or removed to match the list) and messages.indices
 * (reorder; -1 marks a message deleted, a non-negative index restores it).
 */
export class UpdateConversationCommand extends Command<ConversationWire> {
  constructor(readonly conversation: ConversationDto | undefined) {
    super();
  }
}

@CommandHandler(UpdateConversationCommand)
export class UpdateConversationHandler implements ICommandHandler<UpdateConversationCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversation: dto }: UpdateConversationCommand): Promise<ConversationWire> {
    if (!dto?.id) throw new BadRequestException('a Conversation body with its id is required');
    const indices = dto.messages?.indices;
    if (indices) {
      for (const [id, order] of Object.entries(indices)) {
        if (!isOrder(order)) throw new BadRequestException(`messages.indices.${id} must be an integer >= -1`);
      }
    }
    const updated = await this.db.transaction(async (em) => {
      const conversation = await this.reader.require(em, dto.id);
      const now = nowIso();
      const changes: Partial<ConversationEntity> = { updatedAt: now };
      if (dto.name === null) changes.name = null;
      else if (dto.name !== undefined) changes.name = dto.name.trim() || null;
      if (dto.type !== undefined) changes.type = dto.type;
      if (dto.favorited !== undefined) changes.favorited = dto.favorited;
      await em.update(ConversationEntity, { id: conversation.id }, changes);
      if (dto.annotations) await this.setAnnotations(em, conversation.id, dto, now);
      if (indices) await this.applyIndices(em, conversation.id, indices, now);
      const wire = conversationWire(await this.reader.one(em, conversation.id));
      await this.outbox.append(em, 'conversations', conversation.id);
      return wire;
    });
    this.events.publish(new ConversationChangedEvent(dto.id, 'updated'));
    return updated;
  }

  private async setAnnotations(em: EntityManager, conversationId: string, dto: ConversationDto, now: string): Promise<void> {
    const existing = await em.find(ConversationAnnotationEntity, { where: { conversationId } });
    const byId = new Map(existing.map((a) => [a.id, a]));
    const kept = new Set<string>();
    for (const item of dto.annotations!.iterable) {
      const current = byId.get(item.id);
      if (!current) throw new BadRequestException(`annotation ${item.id} is not an annotation of conversation ${conversationId}`);
      kept.add(current.id);
      const text = item.reference?.text;
      const type = item.reference?.type;
      if ((text !== undefined && text !== current.text) || (type !== undefined && type !== current.type)) {
        await em.update(
          ConversationAnnotationEntity,
          { id: current.id },
          { text: text === undefined ? current.text : checkText(text, 'annotation text'), type: type ?? current.type, updatedAt: now },
        );
      }
    }
    const removed = existing.filter((a) => !kept.has(a.id)).map((a) => a.id);
    if (removed.length) await em.delete(ConversationAnnotationEntity, { id: In(removed) });
  }

  private async applyIndices(em: EntityManager, conversationId: string, indices: Record<string, number>, now: string): Promise<void> {
    const messages = await this.reader.messages(em, conversationId);
    const known = new Set(messages.map((m) => m.id));
    for (const id of Object.keys(indices)) {
      if (!known.has(id)) throw new BadRequestException(`message ${id} is not a message of conversation ${conversationId}`);
    }
    // New order: the live messages not listed keep their relative order; each listed one
    // (ascending by its index) is then placed at that index.
    const live: ConversationMessageEntity[] = messages.filter((m) => indices[m.id] === undefined && !m.deletedAt);
    const listed = messages
      .map((m, i) => ({ m, i, order: indices[m.id] }))
      .filter(({ order }) => order !== undefined && order >= 0)
      .sort((a, b) => a.order - b.order || a.i - b.i);
    for (const { m, order } of listed) live.splice(Math.min(order, live.length), 0, m);
    const position = new Map(live.map((m, p) => [m.id, p]));
    for (const message of messages) {
      const order = indices[message.id];
      const patch: Partial<ConversationMessageEntity> = {};
      if (order === -1 && !message.deletedAt) Object.assign(patch, { deletedAt: now, updatedAt: now });
      if (order !== undefined && order >= 0 && message.deletedAt) Object.assign(patch, { deletedAt: null, updatedAt: now });
      const p = position.get(message.id);
      if (p !== undefined && p !== message.position) patch.position = p;
      if (Object.keys(patch).length) await em.update(ConversationMessageEntity, { id: message.id }, patch);
    }
    // Deleted messages keep their place after the live ones.
    let next = live.length;
    for (const message of messages) {
      if (!position.has(message.id)) await em.update(ConversationMessageEntity, { id: message.id }, { position: next++ });
    }
  }
}
