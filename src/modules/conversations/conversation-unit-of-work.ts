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
  /** Anchors created with the conversation: /anchors/stream/identifiers announces them. */
  anchors?: string[];
}

/**
 * Every change to conversations (see UnitOfWork): the outbox entries of the conversations, of
 * the assets whose links changed and of the anchors created with them; after the commit,
 * ConversationChangedEvent.
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
    const anchors = [...new Set(changes.flatMap((c) => c.anchors ?? []))];
    return [
      ...super.outboxEntries(changes),
      ...assets.map((id) => ({ topic: 'assets' as const, id })),
      ...anchors.map((id) => ({ topic: 'anchors' as const, id })),
    ];
  }

  protected eventsOf(changes: ConversationChange[]): IEvent[] {
    return changes.map((c) => new ConversationChangedEvent(c.id, c.change));
  }
}

/**
 * An anchor created on its own (POST /anchors/create, before a conversation links it): the
 * outbox entry of /anchors/stream/identifiers, no conversation changed, no domain event.
 */
@Injectable()
export class AnchorUnitOfWork extends UnitOfWork<RecordChange> {
  protected readonly topic = 'anchors';

  constructor(db: Database, outbox: Outbox, commits: Commits, events: EventBus) {
    super(db, outbox, commits, events);
  }

  protected eventsOf(): IEvent[] {
    return [];
  }
}
