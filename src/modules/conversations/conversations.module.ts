import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { AssetConversationsController } from './asset-conversations.controller';
import { ChangeConversationLinkHandler } from './commands/change-conversation-link.command';
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
import { RemoveDeletedAssetLinksHandler } from './events/remove-deleted-asset-links.handler';
import { GetConversationMessagesHandler } from './queries/get-conversation-messages.query';
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
];
const queryHandlers = [
  GetConversationHandler,
  ListConversationsHandler,
  ListConversationIdentifiersHandler,
  GetConversationMessagesHandler,
  ListAssetConversationsHandler,
];
const eventHandlers = [RemoveDeletedAssetLinksHandler];

@Module({
  imports: [AssetsModule],
  controllers: [ConversationsController, ConversationController, AssetConversationsController],
  providers: [ConversationReader, ConversationWriter, ...commandHandlers, ...queryHandlers, ...eventHandlers],
  exports: [ConversationReader, ConversationWriter],
})
export class ConversationsModule {}
