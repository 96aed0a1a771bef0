import { Module } from '@nestjs/common';
import { EventsModule } from '../../common/events/events.module';
import { ApplicationUnitOfWork } from './application-unit-of-work';
import { ApplicationsController } from './applications.controller';
import { UpdateApplicationHandler } from './commands/update-application.command';
import { GetApplicationHandler } from './queries/get-application.query';
import { ApplicationReader } from './application.reader';
import { ApplicationRegistry } from './application.registry';
import { ApplicationWriter } from './application.writer';
import { RestartHandler } from './commands/restart.command';
import { TerminateHandler } from './commands/terminate.command';
import { HealthReader } from './health.reader';
import { IdempotencyKeyStore } from './idempotency-key.store';
import { IdempotencyKeys } from './idempotency-keys';
import { LocalUser } from './local-user';
import { CheckHealthHandler } from './queries/check-health.query';
import { CheckReadinessHandler } from './queries/check-readiness.query';
import { GetUserHandler } from './queries/get-user.query';
import { ListApplicationsHandler } from './queries/list-applications.query';
import { OsController } from './os.controller';
import { OsServiceController } from './os-service.controller';
import { UsersController } from './users.controller';
import { SystemController } from './system.controller';

const queryHandlers = [
  CheckHealthHandler,
  CheckReadinessHandler,
  GetUserHandler,
  ListApplicationsHandler,
  GetApplicationHandler,
];

@Module({
  imports: [EventsModule],
  controllers: [SystemController, ApplicationsController, OsController, OsServiceController, UsersController],
  providers: [
    ApplicationRegistry,
    ApplicationReader,
    ApplicationWriter,
    HealthReader,
    LocalUser,
    IdempotencyKeys,
    IdempotencyKeyStore,
    RestartHandler,
    TerminateHandler,
    UpdateApplicationHandler,
    ApplicationUnitOfWork,
    ...queryHandlers,
  ],
  exports: [ApplicationRegistry, ApplicationReader, ApplicationUnitOfWork, LocalUser, IdempotencyKeys],
})
export class SystemModule {}
