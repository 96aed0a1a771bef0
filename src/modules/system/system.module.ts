import { Module } from '@nestjs/common';
import { ApplicationRegistry } from './application.registry';
import { IdempotencyKeys } from './idempotency-keys';
import { LocalUser } from './local-user';
import { CheckHealthHandler } from './queries/check-health.query';
import { GetUserHandler } from './queries/get-user.query';
import { ListApplicationsHandler } from './queries/list-applications.query';
import { SystemController } from './system.controller';

const queryHandlers = [CheckHealthHandler, GetUserHandler, ListApplicationsHandler];

@Module({
  controllers: [SystemController],
  providers: [ApplicationRegistry, LocalUser, IdempotencyKeys, ...queryHandlers],
  exports: [ApplicationRegistry, LocalUser, IdempotencyKeys],
})
export class SystemModule {}
