import { Module } from '@nestjs/common';
import { AssetsModule } from '../assets/assets.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { ModelsModule } from '../models/models.module';
import { QgptModule } from '../qgpt/qgpt.module';
import { SearchModule } from '../search/search.module';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpSessionStore } from './mcp-session.store';
import { McpSessions } from './mcp-sessions';
import { AskMemoryHandler } from './queries/ask-memory.query';
import { ReadConversationHandler, RecentConversationsHandler } from './queries/conversations.query';
import { RecentMemoriesHandler } from './queries/memories.query';
import { GetSnippetHandler, RecentSnippetsHandler, SearchSnippetsHandler } from './queries/snippets.query';

const queryHandlers = [
  AskMemoryHandler,
  SearchSnippetsHandler,
  GetSnippetHandler,
  RecentSnippetsHandler,
  RecentConversationsHandler,
  ReadConversationHandler,
  RecentMemoriesHandler,
];

/** The Model Context Protocol server: AI agents use Trove as their long-term memory (docs/MCP.md). */
@Module({
  imports: [AssetsModule, ConversationsModule, SearchModule, ModelsModule, QgptModule],
  controllers: [McpController],
  providers: [McpSessionStore, McpSessions, McpServerFactory, ...queryHandlers],
  exports: [McpSessions],
})
export class McpModule {}
