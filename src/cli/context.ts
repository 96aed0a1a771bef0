import { DynamicModule, INestApplicationContext, LogLevel, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { mkdirSync } from 'node:fs';
import { AppConfig } from '../common/config/app-config';
import { AppHost } from '../common/config/app-host';
import { ConfigModule } from '../common/config/config.module';
import { DatabaseModule } from '../common/database/database.module';
import { StderrLogger, logLevels } from './output';

/** The root module of a command's application context: configuration, the database, CQRS, and the modules the command uses. */
@Module({})
class CliModule {
  static forRoot(config: AppConfig, imports: Array<Type | DynamicModule>): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config, new AppHost(null)), DatabaseModule, CqrsModule.forRoot(), ...imports],
    };
  }
}

/** The command's own output is its result: Nest says only warnings and errors unless TROVE_LOG_LEVEL asks for more. */
function level(config: AppConfig): LogLevel {
  return config.logLevel === 'debug' || config.logLevel === 'verbose'
    ? config.logLevel
    : config.logLevel === 'error'
      ? 'error'
      : 'warn';
}

/**
 * Runs `work` in a Nest application context on the configured store, without an HTTP server: the
 * same modules, database setup (migrations, WAL, group commit) and boot-time work as a server
 * instance (`imports` and what they import), then closes it the normal way. Nest's logs go to stderr.
 */
export async function withContext<T>(
  config: AppConfig,
  imports: Array<Type | DynamicModule>,
  work: (app: INestApplicationContext) => Promise<T>,
): Promise<T> {
  if (config.dialect === 'sqlite') mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, imports), {
    logger: new StderrLogger({ logLevels: logLevels(level(config)) }),
    abortOnError: false,
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
