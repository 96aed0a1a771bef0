import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { ConversationMessageEntity } from '../conversation-message.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, checkText } from '../conversation.writer';
import { ConversationDto, isOrder } from '../dto/conversation.dto';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

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
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversation: dto }: UpdateConversationCommand): Promise<ConversationWire> {
    if (!dto?.id) throw new InvalidInput('a Conversation body with its id is required');
    const indices = dto.messages?.indices;
    if (indices) {
      for (const [id, order] of Object.entries(indices)) {
        if (!isOrder(order)) throw new InvalidInput(`messages.indices.${id} must be an integer >= -1`);
      }
    }
    return this.uow.run(async ({ em, changed }) => {
      const conversation = await this.reader.require(em, dto.id);
      const now = nowIso();
      const changes: Parameters<ConversationWriter['updateConversation']>[2] = { updatedAt: now };
      if (dto.name === null) changes.name = null;
      else if (dto.name !== undefined) changes.name = dto.name.trim() || null;
      if (dto.type !== undefined) changes.type = dto.type;
      if (dto.favorited !== undefined) changes.favorited = dto.favorited;
      await this.writer.updateConversation(em, conversation.id, changes);
      if (dto.annotations) await this.setAnnotations(em, conversation.id, dto, now);
      if (indices) await this.applyIndices(em, conversation.id, indices, now);
      changed({ id: conversation.id, change: 'updated' });
      return conversationWire(await this.reader.one(em, conversation.id));
    });
  }

  private async setAnnotations(
    em: EntityManager,
    conversationId: string,
    dto: ConversationDto,
    now: string,
  ): Promise<void> {
    const existing = await this.reader.annotations(em, conversationId);
    const byId = new Map(existing.map((a) => [a.id, a]));
    const kept = new Set<string>();
    for (const item of dto.annotations!.iterable) {
      const current = byId.get(item.id);
      if (!current)
        throw new InvalidInput(`annotation ${item.id} is not an annotation of conversation ${conversationId}`);
      kept.add(current.id);
      const text = item.reference?.text;
      const type = item.reference?.type;
      if ((text !== undefined && text !== current.text) || (type !== undefined && type !== current.type)) {
        await this.writer.updateAnnotation(em, current.id, {
          text: text === undefined ? current.text : checkText(text, 'annotation text'),
          type: type ?? current.type,
          updatedAt: now,
        });
      }
    }
    const removed = existing.filter((a) => !kept.has(a.id)).map((a) => a.id);
    if (removed.length) await this.writer.deleteAnnotations(em, removed);
  }

  private async applyIndices(
    em: EntityManager,
    conversationId: string,
    indices: Record<string, number>,
    now: string,
  ): Promise<void> {
    const messages = await this.reader.messages(em, conversationId);
    const known = new Set(messages.map((m) => m.id));
    for (const id of Object.keys(indices)) {
      if (!known.has(id)) throw new InvalidInput(`message ${id} is not a message of conversation ${conversationId}`);
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
      if (order !== undefined && order >= 0 && message.deletedAt)
        Object.assign(patch, { deletedAt: null, updatedAt: now });
      const p = position.get(message.id);
      if (p !== undefined && p !== message.position) patch.position = p;
      if (Object.keys(patch).length) await this.writer.updateMessage(em, message.id, patch);
    }
    // Deleted messages keep their place after the live ones.
    let next = live.length;
    for (const message of messages) {
      if (!position.has(message.id)) await this.writer.updateMessage(em, message.id, { position: next++ });
    }
  }
}
