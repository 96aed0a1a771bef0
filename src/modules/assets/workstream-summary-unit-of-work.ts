import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox, OutboxEntry } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';
import { AssetActivityEvent } from './events/asset-activity.event';
import { AssetChangedEvent } from './events/asset-changed.event';
import { WorkstreamSummaryChangedEvent } from './events/workstream-summary-changed.event';

/** A change to one workstream summary. */
export interface WorkstreamSummaryChange extends RecordChange {
  change: 'created' | 'deleted';
  /** Assets whose link to the summary came (created) or went (deleted): they changed too. */
  assets?: string[];
}

/**
 * Every change to workstream summaries (see UnitOfWork): the outbox entries of the summaries
 * (topic `workstream_summaries`) and of the assets whose links changed (an Asset embeds its
 * summaries); after the commit, WorkstreamSummaryChangedEvent, and for each of those assets
 * AssetChangedEvent and its activity (`summary_added` / `summary_removed`).
 */
@Injectable()
export class WorkstreamSummaryUnitOfWork extends UnitOfWork<WorkstreamSummaryChange> {
  protected readonly topic = 'workstream_summaries';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected override isDeletion(change: WorkstreamSummaryChange): boolean {
    return change.change === 'deleted';
  }

  protected override outboxEntries(changes: WorkstreamSummaryChange[]): OutboxEntry[] {
    const assets = [...new Set(changes.flatMap((c) => c.assets ?? []))];
    return [...super.outboxEntries(changes), ...assets.map((id) => ({ topic: 'assets' as const, id }))];
  }

  protected eventsOf(changes: WorkstreamSummaryChange[]): IEvent[] {
    return changes.flatMap((c) => [
      new WorkstreamSummaryChangedEvent(c.id, c.change),
      ...(c.assets ?? []).flatMap((asset) => [
        new AssetChangedEvent(asset, 'updated'),
        new AssetActivityEvent(asset, c.change === 'created' ? 'summary_added' : 'summary_removed', {
          workstream_summary: c.id,
        }),
      ]),
    ]);
  }
}
