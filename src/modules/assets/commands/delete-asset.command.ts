import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';

/**
 * Deletes an asset's content and links and keeps a tombstone row, so later reads
 * answer 410 instead of 404 (the workstream summaries it was linked to lose it: their streams
 * say so). Returns the deleted id.
 */
export class DeleteAssetCommand extends Command<string> {
  constructor(readonly assetId: string) {
    super();
  }
}

@CommandHandler(DeleteAssetCommand)
export class DeleteAssetHandler implements ICommandHandler<DeleteAssetCommand> {
  constructor(
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
    private readonly summaries: WorkstreamSummaryReader,
  ) {}

  async execute({ assetId }: DeleteAssetCommand): Promise<string> {
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, assetId);
      const summaries = await this.summaries.linkedTo(em, assetId);
      await this.writer.tombstone(em, assetId);
      changed({ id: assetId, change: 'deleted', summaries });
    });
    return assetId;
  }
}
