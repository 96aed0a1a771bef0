import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { ModelsModule } from '../models/models.module';
import { SystemModule } from '../system/system.module';
import { EventsModule } from '../../common/events/events.module';
import { StreamHub } from './stream-hub';
import { StreamTopics } from './stream-topics';
import { StreamWakeups } from './stream-wakeups';
import { STREAM_GATEWAYS } from './stream.gateways';

/** The WebSocket change streams (see docs/ARCHITECTURE.md, Streams). */
@Module({
  imports: [EventsModule, AssetsModule, ConversationsModule, ModelsModule, SystemModule],
  providers: [StreamTopics, StreamHub, StreamWakeups, ...STREAM_GATEWAYS],
  exports: [StreamTopics, StreamHub],
})
export class StreamsModule {}
