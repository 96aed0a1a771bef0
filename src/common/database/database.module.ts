import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './database.options';
import { Database } from './database.service';
import { Settings } from './settings';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), retryAttempts: 0 }),
    }),
  ],
  providers: [Database, Settings],
  exports: [Database, Settings],
})
export class DatabaseModule {}
