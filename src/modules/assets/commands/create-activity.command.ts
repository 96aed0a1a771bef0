import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { ApplicationReader } from '../../system/application.reader';
import { ApplicationRegistry } from '../../system/application.registry';
import { activityWires } from '../activity-wires';
import { ActivityEntity } from '../activity.entity';
import { AssetReader } from '../asset.reader';
import { AssetWriter } from '../asset.writer';
import { SeededActivityDto } from '../dto/records.dto';
import { RecordsReader } from '../records.reader';
import { ActivityWire } from '../wire/activity.wire';

/**
 * POST /activities/create: something a client reports (Obsidian: an asset it referenced or
 * copied, a search that led to one, its own install). Stored as sent (its event, of any kind) and
 * read back by GET /activities, GET /activity/{id} and, when it names an asset, that asset's
 * activities. An asset it names must be live (404 unknown, 410 deleted); its application is
 * recorded as any seed's is. Nothing else changes, so nothing is announced.
 */
export class CreateActivityCommand extends Command<ActivityWire> {
  constructor(readonly seed: SeededActivityDto | undefined) {
    super();
  }
}

@CommandHandler(CreateActivityCommand)
export class CreateActivityHandler implements ICommandHandler<CreateActivityCommand> {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetReader,
    private readonly records: RecordsReader,
    private readonly writer: AssetWriter,
    private readonly registry: ApplicationRegistry,
    private readonly applications: ApplicationReader,
  ) {}

  async execute({ seed }: CreateActivityCommand): Promise<ActivityWire> {
    if (!seed) throw new InvalidInput('a SeededActivity body is required');
    const kinds = Object.entries(seed.event).filter(
      ([key, value]) => key !== 'schema' && value !== undefined && value !== null,
    );
    if (kinds.length === 0)
      throw new InvalidInput('event must carry one kind of event (asset, assets, format, adoption, ...)');
    const id = randomUUID();
    await this.db.transaction(async (em) => {
      if (seed.asset) await this.assets.require(em, seed.asset.id);
      const applicationId = await this.registry.resolveId(em, seed.application);
      const metadata = {
        event: Object.fromEntries(kinds),
        ...(seed.format ? { format: seed.format.id } : {}),
        ...(seed.conversation ? { conversation: seed.conversation.id } : {}),
      };
      const row: Omit<ActivityEntity, 'asset' | 'application'> = {
        id,
        assetId: seed.asset?.id ?? null,
        applicationId,
        event: 'reported',
        mechanism: seed.mechanism ?? 'MANUAL',
        metadata: JSON.stringify(metadata),
        createdAt: nowIso(),
      };
      await this.writer.insertActivity(em, row);
    });
    return this.db.read(
      async (em) => (await activityWires(em, [await this.records.activity(em, id)], this.applications, this.assets))[0],
    );
  }
}
