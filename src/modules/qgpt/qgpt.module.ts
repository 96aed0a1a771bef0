import { ModelsModule } from '../models/models.module';
import { IntelligenceModule } from '../intelligence/intelligence.module';
import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { SearchModule } from '../search/search.module';
import { SystemModule } from '../system/system.module';
import { LocalFiles } from './local-files';
import { QgptController } from './qgpt.controller';
import { ModelAnswers } from './model-answers';
import { OfflineAnswers } from './offline-answers';
import { QuerySpace } from './query-space';
import { RelevantSnippets } from './relevant-snippets';
import { HintsHandler } from './queries/hints.query';
import { PersonsRelatedHandler } from './queries/persons-related.query';
import { QuestionHandler } from './queries/question.query';
import { RelevanceHandler } from './queries/relevance.query';
import { RepromptHandler } from './queries/reprompt.query';
import { SnippetCache } from './snippet-cache';
import { QgptStreamGateway } from './stream/qgpt-stream.gateway';
import { QgptStreamSession } from './stream/qgpt-stream.session';

/** Question answering: /qgpt/relevance, question, reprompt, hints, persons/related and the /qgpt/stream WebSocket. */
@Module({
  imports: [AssetsModule, ConversationsModule, SearchModule, SystemModule, IntelligenceModule, ModelsModule],
  controllers: [QgptController],
  providers: [
    LocalFiles,
    SnippetCache,
    QuerySpace,
    RelevantSnippets,
    OfflineAnswers,
    ModelAnswers,
    QgptStreamSession,
    QgptStreamGateway,
    RelevanceHandler,
    QuestionHandler,
    RepromptHandler,
    HintsHandler,
    PersonsRelatedHandler,
  ],
  exports: [ModelAnswers, LocalFiles],
})
export class QgptModule {}
