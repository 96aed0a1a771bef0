import { isUUID } from 'class-validator';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { AssetActivityEvent } from '../../assets/events/asset-activity.event';
import { ConnectedApplications } from '../connected-applications';
import { ConnectorWriter } from '../connector.writer';
import { SeededConnectorTrackingDto, TRACKING_KINDS } from '../dto/connector.dto';

/** The asset a tracking event names (`{asset: {id}}` or `{format: {asset: {id}}}`), if any. */
function namedAsset(event: Record<string, unknown>): string | null {
  const asset = event.asset as { id?: unknown } | undefined;
  const format = event.format as { asset?: { id?: unknown } } | undefined;
  const id = asset?.id ?? format?.asset?.id;
  return isUUID(id) ? (id as string).toLowerCase() : null;
}

/** Records each tracking event sent, as an event of the application (and of the asset it names). */
export class TrackCommand extends Command<string> {
  constructor(
    readonly applicationId: string,
    readonly tracking: SeededConnectorTrackingDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(TrackCommand)
export class TrackHandler implements ICommandHandler<TrackCommand> {
  constructor(
    private readonly db: Database,
    private readonly access: ConnectedApplications,
    private readonly writer: ConnectorWriter,
    private readonly bus: EventBus,
  ) {}

  async execute({ applicationId, tracking }: TrackCommand): Promise<string> {
    const events = TRACKING_KINDS.flatMap((kind) => (tracking?.[kind] ? [[kind, tracking[kind]!] as const] : []));
    const app = await this.db.transaction(async (em) => {
      const app = await this.access.require(em, applicationId);
      const now = nowIso();
      await this.writer.events(
        em,
        events.map(([kind, event]) => ({
          id: randomUUID(),
          applicationId: app.id,
          assetId: namedAsset(event),
          kind,
          payload: JSON.stringify(event),
          createdAt: now,
        })),
      );
      return app;
    });
    // An event naming an asset also shows in that asset's activities (dropped if it does not exist).
    for (const [kind, event] of events) {
      const assetId = namedAsset(event);
      if (assetId)
        this.bus.publish(
          new AssetActivityEvent(assetId, 'tracked', { kind, pair: event.identifier_description_pair ?? null }, app.id),
        );
    }
    return 'OK';
  }
}
