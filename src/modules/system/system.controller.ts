import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextResponse } from '../../common/wire/text';
import { INTERFACE_VERSION } from '../../version';
import { CheckHealthQuery } from './queries/check-health.query';
import { CheckReadinessQuery } from './queries/check-readiness.query';
import { GetUserQuery } from './queries/get-user.query';
import { ListApplicationsQuery } from './queries/list-applications.query';
import { ApplicationsWire } from './wire/application.wire';
import { ReadinessWire } from './wire/readiness.wire';
import { UserWire } from './wire/user.wire';

/** Discovery endpoints real clients call before anything else (docs/CLIENTS.md). */
@ApiTags('System')
@Controller()
export class SystemController {
  constructor(private readonly queries: QueryBus) {}

  @Get('.well-known/health')
  @TextResponse()
  @ApiOperation({
    operationId: 'getWellKnownHealth',
    summary: 'Liveness: `ok` as text (also HEAD); 503 when storage is down',
  })
  @ApiOkResponse({ schema: { type: 'string', example: 'ok' } })
  health(): Promise<string> {
    return this.queries.execute(new CheckHealthQuery());
  }

  @Get('.well-known/ready')
  @ApiOperation({
    operationId: 'getWellKnownReady',
    summary:
      'Readiness: 200 when the database answers a trivial query within 1 s (also HEAD); 503 with the reason otherwise',
  })
  @ApiOkResponse({ type: ReadinessWire })
  ready(): Promise<ReadinessWire> {
    return this.queries.execute(new CheckReadinessQuery());
  }

  @Get('.well-known/version')
  @TextResponse()
  @ApiOperation({ operationId: 'getWellKnownVersion', summary: 'The interface version (clients accept 12.x)' })
  @ApiOkResponse({ schema: { type: 'string', example: INTERFACE_VERSION } })
  version(): string {
    return INTERFACE_VERSION;
  }

  @Get('user')
  @ApiOperation({ operationId: 'userSnapshot', summary: 'The local user' })
  user(): Promise<UserWire> {
    return this.queries.execute(new GetUserQuery());
  }

  @Get('applications')
  @ApiOperation({ operationId: 'applicationsSnapshot', summary: 'Connected applications' })
  applications(): Promise<ApplicationsWire> {
    return this.queries.execute(new ListApplicationsQuery());
  }
}
