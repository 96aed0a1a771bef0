import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';

/**
 * Every change to the models table (see UnitOfWork): the outbox entries of the `models` stream.
 * Nothing else listens to model changes, so there are no domain events.
 */
@Injectable()
export class ModelUnitOfWork extends UnitOfWork<RecordChange> {
  protected readonly topic = 'models';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected eventsOf(): IEvent[] {
    return [];
  }
}
