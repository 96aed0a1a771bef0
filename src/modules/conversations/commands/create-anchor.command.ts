import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AnchorEntity } from '../anchor.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { ConversationSeededAnchorDto } from '../dto/seeded-conversation.dto';
import { AnchorRecordWire, anchorRecordWire } from '../wire/records.wire';

/**
 * POST /anchors/create: a file or directory (`pieces ask -f` attaches one before asking). A
 * path that already has an anchor of that type gets it back: clients look for an existing
 * anchor in their own cache only, which every new process starts empty. A new anchor is
 * announced on /anchors/stream/identifiers; no conversation changes (an anchor is linked to one
 * later).
 */
export class CreateAnchorCommand extends Command<AnchorRecordWire> {
  constructor(readonly seed: ConversationSeededAnchorDto | undefined) {
    super();
  }
}

@CommandHandler(CreateAnchorCommand)
export class CreateAnchorHandler implements ICommandHandler<CreateAnchorCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ seed }: CreateAnchorCommand): Promise<AnchorRecordWire> {
    if (!seed) throw new InvalidInput('a SeededAnchor body is required');
    if (!seed.fullpath.trim()) throw new InvalidInput('fullpath must not be empty');
    return this.uow.run(async ({ em, changed }) => {
      const existing = await this.reader.anchorOfPath(em, seed.fullpath, seed.type);
      if (existing)
        return anchorRecordWire(
          existing,
          (await this.reader.liveConversationsLinkedTo(em, 'anchor', [existing.id])).get(existing.id) ?? [],
        );
      const row = newAnchor(seed);
      await this.writer.insertAnchor(em, row);
      changed({ id: row.id, change: 'created', record: 'anchor' });
      return anchorRecordWire(row, []);
    });
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
