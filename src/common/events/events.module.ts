import { Module } from '@nestjs/common';
import { Commits } from './commits';
import { Outbox } from './outbox';
import { OutboxReader } from './outbox.reader';

/** The transactional outbox behind the change streams (`stream_events`) and the commit signal. */
@Module({ providers: [Outbox, OutboxReader, Commits], exports: [Outbox, OutboxReader, Commits] })
export class EventsModule {}
