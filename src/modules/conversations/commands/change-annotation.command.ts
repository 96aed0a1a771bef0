import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { isUUID } from 'class-validator';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AnnotationTypeEnum } from '../../../common/wire/enums';
import { ChangeAssetAnnotationCommand } from '../../assets/commands/change-asset-annotation.command';
import { SeededRecordAnnotationDto } from '../../assets/dto/records.dto';
import { AnnotationDto } from '../../assets/dto/asset.dto';
import { AnnotationWire } from '../../assets/wire/asset.wire';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter, checkText } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { AnnotationOfRecordWire, conversationAnnotationWire } from '../wire/conversation.wire';

export type AnnotationChange =
  | { kind: 'create'; seed: SeededRecordAnnotationDto | undefined }
  | { kind: 'update'; annotation: AnnotationDto | undefined }
  | { kind: 'delete'; id: string };

/**
 * An annotation created (POST /annotations/create), changed (POST /annotation/update) or deleted
 * (POST /annotations/{annotation}/delete), whether it belongs to a conversation (this module's)
 * or to an asset (the assets module's command): a seed names exactly one of `asset` and
 * `conversation`; an id is looked up in both, as GET /annotation/{annotation} does. The owner is
 * updated and announced. 404 for an unknown annotation, asset or conversation.
 */
export class ChangeAnnotationCommand extends Command<AnnotationOfRecordWire | void> {
  constructor(readonly change: AnnotationChange) {
    super();
  }
}

@CommandHandler(ChangeAnnotationCommand)
export class ChangeAnnotationHandler implements ICommandHandler<ChangeAnnotationCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ change }: ChangeAnnotationCommand): Promise<AnnotationOfRecordWire | void> {
    if (change.kind === 'create') {
      const seed = change.seed;
      if (!seed) throw new InvalidInput('a SeededAnnotation body is required');
      if (Boolean(seed.asset) === Boolean(seed.conversation))
        throw new InvalidInput('a SeededAnnotation names exactly one of asset and conversation');
      if (seed.asset) {
        return (await this.commands.execute(
          new ChangeAssetAnnotationCommand({
            kind: 'create',
            assetId: seed.asset,
            type: seed.type,
            text: seed.text,
            mechanism: seed.mechanism,
          }),
        )) as AnnotationWire;
      }
      checkText(seed.text, 'annotation text');
      return this.uow.run(async ({ em, changed }) => {
        await this.reader.require(em, seed.conversation!);
        const row = await this.writer.addAnnotation(em, seed.conversation!, {
          type: seed.type,
          text: seed.text,
          mechanism: seed.mechanism,
        });
        await this.writer.touchConversations(em, [seed.conversation!]);
        changed({ id: seed.conversation!, change: 'updated' });
        return conversationAnnotationWire(row);
      });
    }
    let id: string;
    let update: { type: AnnotationTypeEnum; text: string } | null = null;
    if (change.kind === 'update') {
      const dto = change.annotation;
      if (!dto) throw new InvalidInput('an Annotation body is required');
      if (!dto.id || !isUUID(dto.id)) throw new InvalidInput('id must be the UUID of an annotation');
      id = dto.id;
      update = { type: dto.type, text: checkText(dto.text, 'annotation text') };
    } else {
      id = change.id;
    }
    const handled = await this.uow.run(async ({ em, changed }) => {
      const annotation = await this.reader.annotation(em, id);
      if (!annotation) return null;
      const updatedAt = nowIso();
      if (update) await this.writer.updateAnnotation(em, id, { ...update, updatedAt });
      else await this.writer.deleteAnnotations(em, [id]);
      await this.writer.touchConversations(em, [annotation.conversationId]);
      changed({ id: annotation.conversationId, change: 'updated' });
      return update ? conversationAnnotationWire({ ...annotation, ...update, updatedAt }) : 'deleted';
    });
    if (handled === 'deleted') return;
    if (handled) return handled;
    // Not a conversation's: an asset's, or 404 there.
    const result = (await this.commands.execute(
      new ChangeAssetAnnotationCommand(update ? { kind: 'update', id, ...update } : { kind: 'delete', id }),
    )) as AnnotationWire | void;
    return result ?? undefined;
  }
}
