import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AnchorEntity } from '../anchor.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { AnchorUnitOfWork } from '../conversation-unit-of-work';
import { ConversationSeededAnchorDto } from '../dto/seeded-conversation.dto';
import { ConversationAnchorWire, anchorWire } from '../wire/conversation.wire';

/**
 * POST /anchors/create: a file or directory (`pieces ask -f` attaches one before asking). A
 * path that already has an anchor of that type gets it back: clients look for an existing
 * anchor in their own cache only, which every new process starts empty. No conversation
 * changes (an anchor is linked to one later); /anchors/stream/identifiers announces a new anchor.
 */
export class CreateAnchorCommand extends Command<ConversationAnchorWire> {
  constructor(readonly seed: ConversationSeededAnchorDto | undefined) {
    super();
  }
}

@CommandHandler(CreateAnchorCommand)
export class CreateAnchorHandler implements ICommandHandler<CreateAnchorCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: AnchorUnitOfWork,
  ) {}

  async execute({ seed }: CreateAnchorCommand): Promise<ConversationAnchorWire> {
    if (!seed) throw new InvalidInput('a SeededAnchor body is required');
    if (!seed.fullpath.trim()) throw new InvalidInput('fullpath must not be empty');
    const anchor = await this.uow.run(async ({ em, changed }) => {
      const existing = await this.reader.anchorOfPath(em, seed.fullpath, seed.type);
      if (existing) return existing;
      const row = newAnchor(seed);
      await this.writer.insertAnchor(em, row);
      changed({ id: row.id });
      return row;
    });
    return anchorWire(anchor);
  }
}

/** The row of a new anchor. */
export function newAnchor(seed: ConversationSeededAnchorDto, now = nowIso()): AnchorEntity {
  return {
    id: randomUUID(),
    type: seed.type,
    fullpath: seed.fullpath,
    name: seed.name?.trim() || null,
    watch: seed.watch ?? false,
    platform: seed.platform ?? null,
    createdAt: now,
    updatedAt: now,
  };
}
