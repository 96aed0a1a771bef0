import { ModelsModule } from '../models/models.module';
import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { ConversationUnitOfWork } from './conversation-unit-of-work';
import { AssetsModule } from '../assets/assets.module';
import { AssetConversationsController } from './asset-conversations.controller';
import { AddMessageHandler } from './commands/add-message.command';
import { ChangeConversationLinkHandler } from './commands/change-conversation-link.command';
import { ChangeMessageHandler } from './commands/change-message.command';
import { CreateAnchorHandler } from './commands/create-anchor.command';
import { CreateConversationFromAssetHandler } from './commands/create-conversation-from-asset.command';
import { CreateConversationHandler } from './commands/create-conversation.command';
import { DeleteConversationHandler } from './commands/delete-conversation.command';
import { IncrementConversationScoresHandler } from './commands/increment-conversation-scores.command';
import { RenameConversationHandler } from './commands/rename-conversation.command';
import { SummarizeConversationHandler } from './commands/summarize-conversation.command';
import { UpdateConversationHandler } from './commands/update-conversation.command';
import { ConversationController } from './conversation.controller';
import { ConversationReader } from './conversation.reader';
import { ConversationWriter } from './conversation.writer';
import { ConversationsController } from './conversations.controller';
import { MessagesController } from './messages.controller';
import { RecordsController } from './records.controller';
import { RemoveDeletedLinksHandler } from './events/remove-deleted-links.handler';
import { GetGroundingRecordHandler } from './queries/get-grounding-record.query';
import { ListGroundingRecordsHandler } from './queries/list-grounding-records.query';
import { ChangeAnchorHandler } from './commands/change-anchor.command';
import { ChangeAnnotationHandler } from './commands/change-annotation.command';
import { ChangeRangeHandler } from './commands/change-range.command';
import { ChangeWebsiteHandler } from './commands/change-website.command';
import { CreateMessageHandler } from './commands/create-message.command';
import { WebsitesController } from './websites.controller';
import { GetAnnotationHandler } from './queries/get-annotation.query';
import { GetConversationMessagesHandler } from './queries/get-conversation-messages.query';
import { GetMessageHandler } from './queries/get-message.query';
import { GetConversationHandler } from './queries/get-conversation.query';
import { ListAssetConversationsHandler } from './queries/list-asset-conversations.query';
import { ListConversationIdentifiersHandler } from './queries/list-conversation-identifiers.query';
import { ListConversationsHandler } from './queries/list-conversations.query';

const commandHandlers = [
  CreateConversationHandler,
  CreateConversationFromAssetHandler,
  DeleteConversationHandler,
  UpdateConversationHandler,
  RenameConversationHandler,
  SummarizeConversationHandler,
  IncrementConversationScoresHandler,
  ChangeConversationLinkHandler,
  ChangeMessageHandler,
  AddMessageHandler,
  CreateAnchorHandler,
  ChangeAnchorHandler,
  ChangeAnnotationHandler,
  ChangeRangeHandler,
  ChangeWebsiteHandler,
  CreateMessageHandler,
];
const queryHandlers = [
  GetConversationHandler,
  ListConversationsHandler,
  ListConversationIdentifiersHandler,
  GetConversationMessagesHandler,
  ListAssetConversationsHandler,
  GetMessageHandler,
  GetAnnotationHandler,
  GetGroundingRecordHandler,
  ListGroundingRecordsHandler,
];
const eventHandlers = [RemoveDeletedLinksHandler];

@Module({
  imports: [EventsModule, AssetsModule, ModelsModule],
  controllers: [
    ConversationsController,
    ConversationController,
    AssetConversationsController,
    MessagesController,
    RecordsController,
    WebsitesController,
  ],
  providers: [
    ConversationReader,
    ConversationWriter,
    ConversationUnitOfWork,
    ...commandHandlers,
    ...queryHandlers,
    ...eventHandlers,
  ],
  exports: [ConversationReader],
})
export class ConversationsModule {}
