import { IEvent } from '@nestjs/cqrs';

/** Published after a message was added to a conversation and committed. */
export class ConversationMessageAddedEvent implements IEvent {
  constructor(
    readonly conversationId: string,
    readonly messageId: string,
    readonly role: string,
  ) {}
}
