import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { textOf } from '../../assets/asset-text';
import { AssetReader } from '../../assets/asset.reader';
import { AnchorEntity } from '../anchor.entity';
import { LINKS } from '../conversation-links';
import { ConversationAnchorEntity } from '../conversation-link.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, MessageInput } from '../conversation.writer';
import { ConversationEntity } from '../conversation.entity';
import { SeededConversationDto } from '../dto/seeded-conversation.dto';
import { ConversationChangedEvent } from '../events/conversation-changed.event';
import { ConversationMessageAddedEvent } from '../events/conversation-message-added.event';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';

/** The conversation row of a new conversation, named or not. */
export function newConversation(id: string, seed: { type?: string; name?: string | null; favorited?: boolean }): ConversationEntity {
  const now = nowIso();
  return {
    id,
    name: seed.name?.trim() || null,
    type: seed.type ?? 'COPILOT',
    favorited: seed.favorited ?? false,
    scoreManual: 0,
    scoreAutomatic: 0,
    scoreReuse: 0,
    scoreUpdate: 0,
    scoreReference: 0,
    scorePriority: 0,
    scoreSearched: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

/**
 * Creates a conversation from a SeededConversation: type (COPILOT when omitted), name
 * (may be null), initial messages, annotations, linked assets and websites, and anchors.
 * No body creates an empty, unnamed COPILOT conversation.
 */
export class CreateConversationCommand extends Command<ConversationWire> {
  constructor(readonly seed: SeededConversationDto | undefined) {
    super();
  }
}

@CommandHandler(CreateConversationCommand)
export class CreateConversationHandler implements ICommandHandler<CreateConversationCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly assets: AssetReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ seed = {} }: CreateConversationCommand): Promise<ConversationWire> {
    const messages: MessageInput[] = (seed.messages ?? []).map((m, i) => {
      const text = textOf(m.fragment.string);
      if (text === undefined) throw new BadRequestException(`messages[${i}].fragment.string.raw is required`);
      return { role: m.role, text, sentiment: m.sentiment, createdAt: m.created?.value ? new Date(m.created.value).toISOString() : undefined };
    });
    const id = randomUUID();
    const { wire, messageIds } = await this.db.transaction(async (em) => {
      await em.insert(ConversationEntity, newConversation(id, seed));
      const added = await this.writer.addMessages(em, id, messages);
      for (const annotation of seed.annotations ?? []) await this.writer.addAnnotation(em, id, annotation);
      await this.link(em, id, seed);
      const wire = conversationWire(await this.reader.one(em, id));
      const assetIds = [...new Set((seed.assets?.iterable ?? []).map((a) => a.id))];
      await this.outbox.appendMany(em, [
        { topic: 'conversations', id },
        ...assetIds.map((assetId) => ({ topic: 'assets' as const, id: assetId })),
      ]);
      return { wire, messageIds: added.map((m) => [m.id, m.role]) };
    });
    this.events.publish(new ConversationChangedEvent(id, 'created'));
    for (const [messageId, role] of messageIds) this.events.publish(new ConversationMessageAddedEvent(id, messageId, role));
    return wire;
  }

  private async link(em: EntityManager, id: string, seed: SeededConversationDto): Promise<void> {
    const now = nowIso();
    for (const assetId of new Set((seed.assets?.iterable ?? []).map((a) => a.id))) {
      await LINKS.asset.check(em, assetId, true, this.assets);
      await em.insert(LINKS.asset.join, { conversationId: id, assetId, createdAt: now });
    }
    for (const websiteId of new Set((seed.websites?.iterable ?? []).map((w) => w.id))) {
      await LINKS.website.check(em, websiteId, true, this.assets);
      await em.insert(LINKS.website.join, { conversationId: id, websiteId, createdAt: now });
    }
    for (const anchor of seed.anchors ?? []) {
      const anchorId = randomUUID();
      if (!anchor.fullpath.trim()) throw new BadRequestException('anchors[].fullpath must not be empty');
      await em.insert(AnchorEntity, {
        id: anchorId,
        type: anchor.type,
        fullpath: anchor.fullpath,
        name: anchor.name?.trim() || null,
        watch: anchor.watch ?? false,
        platform: anchor.platform ?? null,
        createdAt: now,
        updatedAt: now,
      });
      await em.insert(ConversationAnchorEntity, { conversationId: id, anchorId, createdAt: now });
    }
  }
}
