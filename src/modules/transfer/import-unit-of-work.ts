import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox, OutboxEntry, StreamTopicName } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';

/** A record an import created, announced on its kind's change stream. */
export interface ImportedRecord extends RecordChange {
  topic: StreamTopicName;
}

/**
 * One batch of an import (see RecordImporter), the way every change is made (UnitOfWork): one
 * transaction, the outbox entries of the records it created (assets, conversations, memories,
 * custom models: each on its own stream, as if created one by one), the commit signal after it.
 * The search index of the assets it created is written by the batch itself, through the assets'
 * projections, in the same transaction. No domain events: an import records no activities
 * (it brings its own) and deletes nothing.
 */
@Injectable()
export class ImportUnitOfWork extends UnitOfWork<ImportedRecord> {
  protected readonly topic = 'assets';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected override outboxEntries(changes: ImportedRecord[]): OutboxEntry[] {
    return changes.map((c) => ({ topic: c.topic, id: c.id }));
  }

  protected eventsOf(): IEvent[] {
    return [];
  }
}
