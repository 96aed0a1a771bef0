import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { AssetReader } from '../asset.reader';
import { AssetEntity } from '../asset.entity';
import { SeededScoreIncrementDto } from '../../../common/wire/dto/seeded-score-increment.dto';
import { AssetActivityEvent } from '../events/asset-activity.event';
import { AssetChangedEvent } from '../events/asset-changed.event';

const KINDS = ['reuse', 'update', 'reference', 'priority', 'searched'] as const;
type Kind = (typeof KINDS)[number];

/** Entity property and column of each counter. */
const COUNTER: Record<Kind, [keyof AssetEntity, string]> = {
  reuse: ['scoreReuse', 'score_reuse'],
  update: ['scoreUpdate', 'score_update'],
  reference: ['scoreReference', 'score_reference'],
  priority: ['scorePriority', 'score_priority'],
  searched: ['scoreSearched', 'score_searched'],
};

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
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ assetId, increment }: IncrementAssetScoresCommand): Promise<void> {
    if (!increment?.asset && !increment?.assets) {
      throw new BadRequestException('a SeededScoreIncrement with `asset` (e.g. {"asset": {"reuse": true}}) is required');
    }
    const kinds = KINDS.filter((k) => increment.asset?.[k] === true || increment.assets?.[k] === true);
    if (!kinds.length) {
      throw new BadRequestException(`SeededScoreIncrement.asset must set at least one of ${KINDS.join(', ')} to true`);
    }
    const manual = kinds.filter((k) => k !== 'searched').length;
    const automatic = kinds.includes('searched') ? 1 : 0;
    await this.db.transaction(async (em) => {
      await this.reader.require(em, assetId);
      // One relative UPDATE: concurrent increments add up instead of overwriting each other.
      const set: Partial<Record<keyof AssetEntity, () => string>> = {};
      for (const kind of kinds) {
        const [property, column] = COUNTER[kind];
        set[property] = () => `"${column}" + 1`;
      }
      if (manual) set.scoreManual = () => `"score_manual" + ${manual}`;
      if (automatic) set.scoreAutomatic = () => `"score_automatic" + ${automatic}`;
      await em.createQueryBuilder().update(AssetEntity).set(set).where('id = :id', { id: assetId }).execute();
      await this.outbox.append(em, 'assets', assetId);
    });
    this.events.publish(new AssetChangedEvent(assetId, 'updated'));
    this.events.publish(new AssetActivityEvent(assetId, 'scored', { kinds }));
  }
}
