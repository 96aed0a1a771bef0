import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { NotFound } from '../../../common/errors/domain-errors';
import { AssetWriter } from '../asset.writer';
import { RecordAssetActivityHandler } from '../events/asset-activity.event';

/** POST /activities/{activity}/delete: one activity (404 unknown). Activities waiting for their batch are written first. */
export class DeleteActivityCommand extends Command<void> {
  constructor(readonly id: string) {
    super();
  }
}

@CommandHandler(DeleteActivityCommand)
export class DeleteActivityHandler implements ICommandHandler<DeleteActivityCommand> {
  constructor(
    private readonly db: Database,
    private readonly writer: AssetWriter,
    private readonly recorder: RecordAssetActivityHandler,
  ) {}

  async execute({ id }: DeleteActivityCommand): Promise<void> {
    await this.recorder.flush();
    const deleted = await this.db.transaction((em) => this.writer.deleteActivity(em, id));
    if (!deleted) throw new NotFound(`activity ${id} not found`);
  }
}
