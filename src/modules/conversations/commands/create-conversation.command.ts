import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { textOf } from '../../assets/asset-text';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, MessageInput } from '../conversation.writer';
import { ConversationEntity } from '../conversation.entity';
import { SeededConversationDto } from '../dto/seeded-conversation.dto';
import { ConversationWire, conversationWire } from '../wire/conversation.wire';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { newAnchor } from './create-anchor.command';

/** The conversation row of a new conversation, named or not. */
export function newConversation(
  id: string,
  seed: { type?: string; name?: string | null; favorited?: boolean },
): ConversationEntity {
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
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ seed = {} }: CreateConversationCommand): Promise<ConversationWire> {
    const messages: MessageInput[] = (seed.messages ?? []).map((m, i) => {
      const text = textOf(m.fragment.string);
      if (text === undefined) throw new InvalidInput(`messages[${i}].fragment.string.raw is required`);
      return {
        role: m.role,
        text,
        sentiment: m.sentiment,
        createdAt: m.created?.value ? new Date(m.created.value).toISOString() : undefined,
      };
    });
    const id = randomUUID();
    return this.uow.run(async ({ em, changed }) => {
      await this.writer.insertConversation(em, newConversation(id, seed));
      await this.writer.addMessages(em, id, messages);
      for (const annotation of seed.annotations ?? []) await this.writer.addAnnotation(em, id, annotation);
      for (const anchor of await this.link(em, id, seed)) changed({ id: anchor, change: 'created', record: 'anchor' });
      changed({ id, change: 'created', assets: (seed.assets?.iterable ?? []).map((a) => a.id) });
      return conversationWire(await this.reader.one(em, id));
    });
  }

  /** Links what the seed names and creates its anchors; answers the new anchors' ids (announced on their stream). */
  private async link(em: EntityManager, id: string, seed: SeededConversationDto): Promise<string[]> {
    const now = nowIso();
    for (const assetId of new Set((seed.assets?.iterable ?? []).map((a) => a.id))) {
      await this.reader.requireLinkTarget(em, 'asset', assetId, true);
      await this.writer.link(em, 'asset', id, assetId, now);
    }
    for (const websiteId of new Set((seed.websites?.iterable ?? []).map((w) => w.id))) {
      await this.reader.requireLinkTarget(em, 'website', websiteId, true);
      await this.writer.link(em, 'website', id, websiteId, now);
    }
    const anchors: string[] = [];
    for (const anchor of seed.anchors ?? []) {
      if (!anchor.fullpath.trim()) throw new InvalidInput('anchors[].fullpath must not be empty');
      const row = newAnchor(anchor, now);
      await this.writer.insertAnchor(em, row);
      await this.writer.link(em, 'anchor', id, row.id, now);
      anchors.push(row.id);
    }
    return anchors;
  }
}
