import { Module } from '@nestjs/common';
import { ApplicationReader } from './application.reader';
import { ApplicationRegistry } from './application.registry';
import { ApplicationWriter } from './application.writer';
import { RestartHandler } from './commands/restart.command';
import { HealthReader } from './health.reader';
import { IdempotencyKeyStore } from './idempotency-key.store';
import { IdempotencyKeys } from './idempotency-keys';
import { LocalUser } from './local-user';
import { CheckHealthHandler } from './queries/check-health.query';
import { GetUserHandler } from './queries/get-user.query';
import { ListApplicationsHandler } from './queries/list-applications.query';
import { OsController } from './os.controller';
import { SystemController } from './system.controller';

const queryHandlers = [CheckHealthHandler, GetUserHandler, ListApplicationsHandler];

@Module({
  controllers: [SystemController, OsController],
  providers: [
    ApplicationRegistry,
    ApplicationReader,
    ApplicationWriter,
    HealthReader,
    LocalUser,
    IdempotencyKeys,
    IdempotencyKeyStore,
    RestartHandler,
    ...queryHandlers,
  ],
  exports: [ApplicationRegistry, ApplicationReader, LocalUser, IdempotencyKeys],
})
export class SystemModule {}
