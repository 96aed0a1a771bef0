import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetWriter } from '../asset.writer';
import { LinkRecordKind, RecordsReader } from '../records.reader';

/**
 * POST /tags/{tag}/delete, POST /websites/{website}/delete: the record and its links to assets,
 * every linked live asset re-indexed and announced (with a tag_removed / website_removed
 * activity). 404 unknown. A website's links to conversations are removed first by the
 * conversations module (WebsitesController).
 */
export class DeleteLinkRecordCommand extends Command<void> {
  constructor(
    readonly kind: LinkRecordKind,
    readonly id: string,
  ) {
    super();
  }
}

@CommandHandler(DeleteLinkRecordCommand)
export class DeleteLinkRecordHandler implements ICommandHandler<DeleteLinkRecordCommand> {
  constructor(
    private readonly records: RecordsReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ kind, id }: DeleteLinkRecordCommand): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      await this.records.require(em, kind, id);
      const assetIds = (await this.records.linkedAssets(em, kind, [id])).get(id) ?? [];
      await this.writer.deleteLinkRecord(em, kind, id, assetIds);
      for (const assetId of assetIds) {
        changed({
          id: assetId,
          change: 'updated',
          activity: { kind: kind === 'tag' ? 'tag_removed' : 'website_removed', metadata: { [kind]: id } },
        });
      }
    });
  }
}
