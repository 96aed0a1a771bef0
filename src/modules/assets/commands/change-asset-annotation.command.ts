import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { AnnotationTypeEnum } from '../../../common/wire/enums';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { RecordsReader } from '../records.reader';
import { AnnotationWire, annotationWire } from '../wire/asset.wire';

/** Longest annotation text (as an asset's own annotations: AnnotationDto). */
const MAX_TEXT = 100_000;

export type AssetAnnotationChange =
  | { kind: 'create'; assetId: string; type: AnnotationTypeEnum; text: string; mechanism?: string }
  | { kind: 'update'; id: string; type: AnnotationTypeEnum; text: string }
  | { kind: 'delete'; id: string };

/**
 * One annotation of an asset, created (POST /annotations/create with `asset`), changed (POST
 * /annotation/update) or deleted (POST /annotations/{annotation}/delete): the asset is updated,
 * re-indexed (its annotations are searched) and announced. 404 for an unknown annotation or
 * asset, 410 for a deleted asset. Annotations of conversations are the conversations module's.
 */
export class ChangeAssetAnnotationCommand extends Command<AnnotationWire | void> {
  constructor(readonly change: AssetAnnotationChange) {
    super();
  }
}

@CommandHandler(ChangeAssetAnnotationCommand)
export class ChangeAssetAnnotationHandler implements ICommandHandler<ChangeAssetAnnotationCommand> {
  constructor(
    private readonly assets: AssetReader,
    private readonly records: RecordsReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ change }: ChangeAssetAnnotationCommand): Promise<AnnotationWire | void> {
    if (change.kind !== 'delete') {
      if (change.text.includes('\u0000')) throw new InvalidInput('annotation text must not contain NUL characters');
      if (change.text.length > MAX_TEXT)
        throw new InvalidInput(`annotation text must be at most ${MAX_TEXT} characters`);
    }
    return this.uow.run(async ({ em, changed }) => {
      let id: string;
      let assetId: string;
      if (change.kind === 'create') {
        assetId = (await this.assets.require(em, change.assetId)).id;
        id = randomUUID();
        const now = nowIso();
        await this.writer.insertAnnotation(em, {
          id,
          assetId,
          type: change.type,
          text: change.text,
          mechanism: change.mechanism ?? 'MANUAL',
          createdAt: now,
          updatedAt: now,
        });
      } else {
        const current = await this.records.annotation(em, change.id);
        id = current.id;
        assetId = current.assetId!;
        if (change.kind === 'update')
          await this.writer.updateAnnotation(em, id, { type: change.type, text: change.text });
        else await this.writer.deleteAnnotation(em, id);
      }
      await this.writer.touchAssets(em, [assetId]);
      changed({ id: assetId, change: 'updated', activity: { kind: 'updated' } });
      if (change.kind !== 'delete') return annotationWire(await this.records.annotation(em, id));
    });
  }
}
