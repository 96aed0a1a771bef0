import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { EventsHandler, IEvent, IEventHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { Database } from '../../../common/database/database.service';
import { nowIso } from '../../../common/wire/common.wire';
import { ApplicationRegistry } from '../../system/application.registry';
import { AssetWriter } from '../asset.writer';
import { AssetsSearchedEvent } from './assets-searched.event';

export type ActivityKind =
  | 'created'
  | 'updated'
  | 'viewed'
  | 'searched'
  | 'exported'
  | 'reclassified'
  | 'scored'
  | 'tag_added'
  | 'tag_removed'
  | 'website_added'
  | 'website_removed'
  | 'summary_added'
  | 'summary_removed'
  /** Reported by an integration (POST /{application}/track naming the asset). */
  | 'tracked'
  /** Created by a client (POST /activities/create): its event as sent, in the metadata. */
  | 'reported';

/**
 * Published (after commit, or after answering a read) when something happened to an asset
 * that its activity list should show. `at` is taken when the event is made, not when it is recorded.
 */
export class AssetActivityEvent implements IEvent {
  readonly at = nowIso();

  constructor(
    readonly assetId: string,
    readonly kind: ActivityKind,
    readonly metadata: Record<string, unknown> | null = null,
    /** The application that acted; Trove itself when not known. */
    readonly applicationId: string | null = null,
  ) {}
}

/**
 * Activities are written in batches: at most this long after they happened... Every commit on
 * SQLite empties the reader connection's page cache (WAL: any change resets it), so under a
 * stream of views the batches are kept rare: 1 s instead of 200 ms took reads from 3,522 to
 * 4,554 req/s (docs/PERFORMANCE.md).
 */
const FLUSH_MS = 1000;
/** ...or as soon as this many are waiting. */
const FLUSH_AT = 5000;
/** Beyond this many waiting (storage down for long), the oldest are dropped and counted. */
const MAX_PENDING = 50_000;

/**
 * Writes activity rows in batches, off the request path: a view must not cost a durable
 * write of its own. An activity may show up to FLUSH_MS late, except to a list of activities
 * (which flushes first); a failure is logged and never reaches a client; what is waiting is
 * flushed on shutdown. Activities of an asset deleted meanwhile are dropped.
 *
 * Each activity is serialised to its row (JSON) when it happens, not all at once when the batch
 * is written: building and serialising 5,000 rows in one go held the event loop for 5-7 ms.
 */
@EventsHandler(AssetActivityEvent, AssetsSearchedEvent)
export class RecordAssetActivityHandler
  implements IEventHandler<AssetActivityEvent | AssetsSearchedEvent>, BeforeApplicationShutdown
{
  private readonly logger = new Logger('Activities');
  /** Rows waiting, each a JSON array; the application is null for Trove itself (resolved on write). */
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly writer: AssetWriter,
    private readonly applications: ApplicationRegistry,
  ) {}

  /** Activities waiting for their batch to be written (the metrics' queue depth). */
  get waiting(): number {
    return this.pending.length;
  }

  handle(event: AssetActivityEvent | AssetsSearchedEvent): void {
    const entries =
      event instanceof AssetsSearchedEvent
        ? [...new Set(event.assetIds)].map((id) => new AssetActivityEvent(id, 'searched', { query: event.query }))
        : [event];
    for (const e of entries) {
      this.pending.push(
        JSON.stringify([
          randomUUID(),
          e.assetId,
          e.applicationId,
          e.kind,
          e.kind === 'searched' ? 'AUTOMATIC' : 'MANUAL',
          e.metadata ? JSON.stringify(e.metadata) : null,
          e.at,
        ]),
      );
    }
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.logger.warn(`dropped ${dropped.length} activities: storage is not keeping up`);
    }
    if (this.pending.length >= FLUSH_AT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Before the database closes (its own hook runs on application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Writes everything waiting, one batch at a time. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => (batch.length ? this.write(batch) : undefined));
    return this.flushing;
  }

  private async write(rows: string[]): Promise<void> {
    try {
      const self = await this.db.transaction(async (em) => {
        const applicationId = await this.applications.resolveId(em);
        await this.writer.insertActivities(em, rows, applicationId);
        return applicationId;
      });
      this.applications.remember(undefined, self);
    } catch (error) {
      this.logger.error(
        `could not record ${rows.length} activit${rows.length === 1 ? 'y' : 'ies'}: ${(error as Error).message}`,
      );
    }
  }
}
