import { IEvent } from '@nestjs/cqrs';

export type ConversationChange = 'created' | 'updated' | 'deleted';

/** Published after a change to a conversation (or its links, messages, annotations) is committed. */
export class ConversationChangedEvent implements IEvent {
  constructor(
    readonly conversationId: string,
    readonly change: ConversationChange,
  ) {}
}
