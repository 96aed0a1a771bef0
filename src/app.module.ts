import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AppConfig } from './common/config/app-config';
import { AppHost } from './common/config/app-host';
import { ConfigModule } from './common/config/config.module';
import { DatabaseModule } from './common/database/database.module';
import { AppletsModule } from './modules/applets/applets.module';
import { AssetsModule } from './modules/assets/assets.module';
import { ConnectorModule } from './modules/connector/connector.module';
import { ConversationsModule } from './modules/conversations/conversations.module';
import { IntelligenceModule } from './modules/intelligence/intelligence.module';
import { McpModule } from './modules/mcp/mcp.module';
import { ModelsModule } from './modules/models/models.module';
import { OperationsModule } from './modules/operations/operations.module';
import { QgptModule } from './modules/qgpt/qgpt.module';
import { SearchModule } from './modules/search/search.module';
import { StreamsModule } from './modules/streams/streams.module';
import { SystemModule } from './modules/system/system.module';
import { TransferModule } from './modules/transfer/transfer.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, host: AppHost): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, host),
        DatabaseModule,
        CqrsModule.forRoot(),
        IntelligenceModule,
        ModelsModule,
        SearchModule,
        SystemModule,
        AssetsModule,
        ConversationsModule,
        ConnectorModule,
        StreamsModule,
        QgptModule,
        McpModule,
        TransferModule,
        AppletsModule,
        OperationsModule,
      ],
    };
  }
}
