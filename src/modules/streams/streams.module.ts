import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ModelsModule } from '../models/models.module';
import { OutboxReader } from './outbox.reader';
import { StreamHub } from './stream-hub';
import { StreamTopics } from './stream-topics';
import { StreamWakeups, WakeStreamsOnChange } from './stream-wakeups';
import { STREAM_GATEWAYS } from './stream.gateways';

/** The WebSocket change streams (see docs/ARCHITECTURE.md, Streams). */
@Module({
  imports: [AssetsModule, ModelsModule],
  providers: [OutboxReader, StreamTopics, StreamHub, StreamWakeups, WakeStreamsOnChange, ...STREAM_GATEWAYS],
  exports: [StreamTopics, StreamHub],
})
export class StreamsModule {}
