import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { nowIso } from '../../../common/wire/common.wire';
import { SearchIndex } from '../../search/search-index.service';
import { AnnotationEntity } from '../annotation.entity';
import { AssetReader } from '../asset.reader';
import { AssetEntity } from '../asset.entity';
import { AssetChangedEvent } from '../events/asset-changed.event';
import { FormatEntity } from '../format.entity';
import { AssetTagEntity } from '../tag.entity';
import { AssetWebsiteEntity } from '../website.entity';
import { ActivityEntity } from '../activity.entity';
import { AssetWorkstreamSummaryEntity } from '../workstream-summary.entity';

/**
 * Deletes an asset's content and links and keeps a tombstone row, so later reads
 * answer 410 instead of 404. Returns the deleted id.
 */
export class DeleteAssetCommand extends Command<string> {
  constructor(readonly assetId: string) {
    super();
  }
}

@CommandHandler(DeleteAssetCommand)
export class DeleteAssetHandler implements ICommandHandler<DeleteAssetCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: AssetReader,
    private readonly search: SearchIndex,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ assetId }: DeleteAssetCommand): Promise<string> {
    await this.db.transaction(async (em) => {
      await this.reader.require(em, assetId);
      for (const entity of [FormatEntity, AnnotationEntity, AssetTagEntity, AssetWebsiteEntity, AssetWorkstreamSummaryEntity, ActivityEntity]) {
        await em.delete(entity, { assetId });
      }
      const now = nowIso();
      await em.update(AssetEntity, { id: assetId }, { deletedAt: now, updatedAt: now, name: null, mechanism: 'DELETED' });
      await this.search.remove(em, assetId);
      await this.outbox.append(em, 'assets', assetId, { deleted: true });
    });
    this.events.publish(new AssetChangedEvent(assetId, 'deleted'));
    return assetId;
  }
}
