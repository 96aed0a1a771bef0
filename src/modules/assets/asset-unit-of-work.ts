import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox, OutboxEntry } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';
import { ActivityKind, AssetActivityEvent } from './events/asset-activity.event';
import { AssetChangedEvent } from './events/asset-changed.event';
import { AssetAggregate } from './wire/asset.wire';

/** A change to one asset. `scored`: only its counters changed (nothing searchable). */
export interface AssetChange extends RecordChange {
  change: 'created' | 'updated' | 'deleted' | 'scored';
  /** The asset as the unit of work read it after its change, if it did (the projections then need no read of their own). */
  aggregate?: AssetAggregate;
  /** What the asset's activity list shows of the change. */
  activity?: { kind: ActivityKind; metadata?: Record<string, unknown> | null; applicationId?: string | null };
  /** Workstream summaries whose links to the asset changed: their streams announce them too. */
  summaries?: string[];
}

/**
 * Read models kept in step with assets inside the transaction that changes them (the search
 * index registers itself here), so that they never show a half-written asset. The assets module
 * does not know them: they depend on it, not the other way round.
 */
export interface AssetProjection {
  apply(em: EntityManager, changes: AssetChange[]): Promise<void>;
}

@Injectable()
export class AssetProjections {
  private readonly projections: AssetProjection[] = [];

  register(projection: AssetProjection): void {
    this.projections.push(projection);
  }

  async apply(em: EntityManager, changes: AssetChange[]): Promise<void> {
    for (const projection of this.projections) await projection.apply(em, changes);
  }
}

/**
 * Every change to assets (see UnitOfWork): in the transaction, the projections (search index)
 * and the outbox entries (with those of the workstream summaries whose links changed); after the
 * commit, AssetChangedEvent and the activity of each change.
 */
@Injectable()
export class AssetUnitOfWork extends UnitOfWork<AssetChange> {
  protected readonly topic = 'assets';

  constructor(
    db: Database,
    outbox: Outbox,
    commits: Commits,
    events: EventBus,
    private readonly projections: AssetProjections,
  ) {
    super(db, outbox, commits, events);
  }

  protected override isDeletion(change: AssetChange): boolean {
    return change.change === 'deleted';
  }

  protected override outboxEntries(changes: AssetChange[]): OutboxEntry[] {
    const summaries = [...new Set(changes.flatMap((c) => c.summaries ?? []))];
    return [
      ...super.outboxEntries(changes),
      ...summaries.map((id) => ({ topic: 'workstream_summaries' as const, id })),
    ];
  }

  protected override inTransaction(em: EntityManager, changes: AssetChange[]): Promise<void> {
    return this.projections.apply(em, changes);
  }

  protected eventsOf(changes: AssetChange[]): IEvent[] {
    return changes.flatMap((c) => {
      const events: IEvent[] = [new AssetChangedEvent(c.id, c.change === 'scored' ? 'updated' : c.change)];
      if (c.activity)
        events.push(
          new AssetActivityEvent(c.id, c.activity.kind, c.activity.metadata ?? null, c.activity.applicationId ?? null),
        );
      return events;
    });
  }
}
