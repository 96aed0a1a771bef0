import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SeededScoreIncrementDto } from '../../../common/wire/dto/seeded-score-increment.dto';
import { scoreIncrement } from '../../../common/wire/score-increment';
import { AssetUnitOfWork } from '../asset-unit-of-work';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';

/**
 * Adds one to each counter flagged true in `asset` (or `assets`). The user's own
 * interactions (reuse, update, reference, priority) also count towards `manual`; being
 * found by a search counts towards `automatic`.
 */
export class IncrementAssetScoresCommand extends Command<void> {
  constructor(
    readonly assetId: string,
    readonly increment: SeededScoreIncrementDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(IncrementAssetScoresCommand)
export class IncrementAssetScoresHandler implements ICommandHandler<IncrementAssetScoresCommand> {
  constructor(
    private readonly reader: AssetReader,
    private readonly writer: AssetWriter,
    private readonly uow: AssetUnitOfWork,
  ) {}

  async execute({ assetId, increment }: IncrementAssetScoresCommand): Promise<void> {
    const { kinds, counters } = scoreIncrement(increment, 'asset');
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, assetId);
      await this.writer.incrementScores(em, assetId, counters);
      changed({ id: assetId, change: 'scored', activity: { kind: 'scored', metadata: { kinds } } });
    });
  }
}
