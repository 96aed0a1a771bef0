import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { AnchorEntity } from '../anchor.entity';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { AnchorUpdateDto } from '../dto/records.dto';
import { AnchorRecordWire, anchorRecordWire } from '../wire/records.wire';

export type AnchorChange =
  | { kind: 'update'; anchor: AnchorUpdateDto | undefined }
  | { kind: 'rename'; id: string }
  | { kind: 'delete'; id: string };

/**
 * An anchor changed (POST /anchor/update: its name, type, watch flag, the path of its one point),
 * renamed (POST /anchor/{anchor}/rename: after the last segment of its path, Trove's rename of a
 * file or directory) or deleted (POST /anchors/{anchor}/delete: its links to conversations go
 * first). The anchor is announced on /anchors/stream/identifiers, each conversation that shows it
 * on the conversations stream. 404 unknown.
 */
export class ChangeAnchorCommand extends Command<AnchorRecordWire | void> {
  constructor(readonly change: AnchorChange) {
    super();
  }
}

@CommandHandler(ChangeAnchorCommand)
export class ChangeAnchorHandler implements ICommandHandler<ChangeAnchorCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ change }: ChangeAnchorCommand): Promise<AnchorRecordWire | void> {
    if (change.kind === 'update' && !change.anchor) throw new InvalidInput('an Anchor body is required');
    const id = change.kind === 'update' ? change.anchor!.id : change.id;
    const paths =
      change.kind === 'update'
        ? (change.anchor!.points?.iterable ?? []).map((p) => p.reference?.fullpath).filter((p): p is string => !!p)
        : [];
    if (new Set(paths).size > 1) throw new InvalidInput('Trove keeps one path per anchor: give its one point');
    if (paths.some((p) => !p.trim())) throw new InvalidInput('fullpath must not be empty');
    return this.uow.run(async ({ em, changed }) => {
      const current = await this.reader.anchor(em, id);
      const conversations = (await this.reader.liveConversationsLinkedTo(em, 'anchor', [id])).get(id) ?? [];
      if (change.kind === 'delete') {
        await this.writer.removeLinksTo(em, 'anchor', id);
        await this.writer.deleteAnchor(em, id);
      } else {
        const patch: Partial<AnchorEntity> =
          change.kind === 'rename'
            ? { name: current.fullpath.split(/[\\/]/).filter(Boolean).pop() ?? current.fullpath }
            : {
                ...(change.anchor!.name !== undefined ? { name: change.anchor!.name.trim() || null } : {}),
                ...(change.anchor!.type ? { type: change.anchor!.type } : {}),
                ...(change.anchor!.watch !== undefined ? { watch: change.anchor!.watch } : {}),
                ...(paths[0] ? { fullpath: paths[0] } : {}),
              };
        await this.writer.updateAnchor(em, id, patch);
      }
      await this.writer.touchConversations(em, conversations);
      for (const conversation of conversations) changed({ id: conversation, change: 'updated' });
      changed({ id, change: change.kind === 'delete' ? 'deleted' : 'updated', record: 'anchor' });
      if (change.kind !== 'delete') return anchorRecordWire(await this.reader.anchor(em, id), conversations);
    });
  }
}
