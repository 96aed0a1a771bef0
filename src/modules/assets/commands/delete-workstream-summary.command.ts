import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { nowIso } from '../../../common/wire/common.wire';
import { WorkstreamSummaryUnitOfWork } from '../workstream-summary-unit-of-work';
import { WorkstreamSummaryReader } from '../workstream-summary.reader';
import { WorkstreamSummaryWriter } from '../workstream-summary.writer';

/**
 * Deletes a workstream summary: its content and its asset links go, an emptied row stays as a
 * tombstone, so later reads answer 410 (404 when it never existed, 410 when deleted already).
 */
export class DeleteWorkstreamSummaryCommand extends Command<void> {
  constructor(readonly summaryId: string) {
    super();
  }
}

@CommandHandler(DeleteWorkstreamSummaryCommand)
export class DeleteWorkstreamSummaryHandler implements ICommandHandler<DeleteWorkstreamSummaryCommand> {
  constructor(
    private readonly reader: WorkstreamSummaryReader,
    private readonly writer: WorkstreamSummaryWriter,
    private readonly uow: WorkstreamSummaryUnitOfWork,
  ) {}

  async execute({ summaryId }: DeleteWorkstreamSummaryCommand): Promise<void> {
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, summaryId);
      const assets = await this.reader.linkedAssetIds(em, summaryId);
      await this.writer.tombstone(em, summaryId, assets, nowIso());
      changed({ id: summaryId, change: 'deleted', assets });
    });
  }
}
