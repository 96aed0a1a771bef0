import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox, OutboxEntry } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';
import { ConversationChangedEvent } from './events/conversation-changed.event';

/** A change to one conversation (its messages, annotations and links included). */
export interface ConversationChange extends RecordChange {
  change: 'created' | 'updated' | 'deleted';
  /** Assets whose links to the conversation changed: the asset streams announce them too. */
  assets?: string[];
}

/**
 * Every change to conversations (see UnitOfWork): the outbox entries of the conversations and of
 * the assets whose links changed; after the commit, ConversationChangedEvent.
 */
@Injectable()
export class ConversationUnitOfWork extends UnitOfWork<ConversationChange> {
  protected readonly topic = 'conversations';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected override isDeletion(change: ConversationChange): boolean {
    return change.change === 'deleted';
  }

  protected override outboxEntries(changes: ConversationChange[]): OutboxEntry[] {
    const assets = [...new Set(changes.flatMap((c) => c.assets ?? []))];
    return [...super.outboxEntries(changes), ...assets.map((id) => ({ topic: 'assets' as const, id }))];
  }

  protected eventsOf(changes: ConversationChange[]): IEvent[] {
    return changes.map((c) => new ConversationChangedEvent(c.id, c.change));
  }
}
