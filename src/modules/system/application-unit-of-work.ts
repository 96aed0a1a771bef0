import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';

/**
 * Every change to a connected application that clients follow (see UnitOfWork): connect,
 * onboarded, POST /application/update. Its outbox entries feed `/applications/stream/identifiers`
 * (Obsidian re-reads its application from there: settings sync). No domain events.
 */
@Injectable()
export class ApplicationUnitOfWork extends UnitOfWork<RecordChange> {
  protected readonly topic = 'applications';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected eventsOf(): IEvent[] {
    return [];
  }
}
