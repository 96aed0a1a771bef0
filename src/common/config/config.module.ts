import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config';
import { AppHost } from './app-host';

/** Makes the one validated AppConfig, and what the code that started the app allows it (AppHost), injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, host: AppHost): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: AppHost, useValue: host },
      ],
      exports: [AppConfig, AppHost],
    };
  }
}
