import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { Database } from '../../common/database/database.service';
import { Commits } from '../../common/events/commits';
import { Outbox, OutboxEntry } from '../../common/events/outbox';
import { RecordChange, UnitOfWork } from '../../common/events/unit-of-work';
import { ConversationChangedEvent } from './events/conversation-changed.event';

/**
 * A change to one conversation (its messages, annotations and links included), or to one of the
 * records conversations are grounded in that have streams of their own: an anchor, a range
 * (`record`; a conversation by default).
 */
export interface ConversationChange extends RecordChange {
  change: 'created' | 'updated' | 'deleted';
  /** Assets whose links to the conversation changed: the asset streams announce them too. */
  assets?: string[];
  record?: 'conversation' | 'anchor' | 'range';
}

const TOPIC_OF = { conversation: 'conversations', anchor: 'anchors', range: 'ranges' } as const;

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
    const own = changes.map((c) => ({
      topic: TOPIC_OF[c.record ?? 'conversation'],
      id: c.id,
      deleted: this.isDeletion(c),
    }));
    return [...own, ...assets.map((id) => ({ topic: 'assets' as const, id }))];
  }

  protected eventsOf(changes: ConversationChange[]): IEvent[] {
    return changes
      .filter((c) => (c.record ?? 'conversation') === 'conversation')
      .map((c) => new ConversationChangedEvent(c.id, c.change));
  }
}
