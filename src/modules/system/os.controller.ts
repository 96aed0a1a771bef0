import { BadRequestException, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { crossSiteWithoutOrigin } from '../../common/http/access';
import { replySent } from '../../common/http/reply-sent';
import { TextResponse } from '../../common/wire/text';
import { RestartCommand } from './commands/restart.command';
import { LocalUser } from './local-user';
import { AllocationCloudWire, UserProfileWire, noCloudWire, userProfileWire } from './wire/user.wire';
import { WorkstreamPatternEngineStatusWire, ltmStatusWire } from './wire/ltm-status.wire';

/**
 * What the Pieces clients ask of the desktop service and the Pieces account, beyond
 * the core interface, answered for what Trove is: one local user who is always signed in, no Pieces
 * cloud (the applets are the applets module's). Each answer lets the official CLI say so without failing
 * (docs/CLIENTS.md lists what each command shows).
 */
@ApiTags('System')
@Controller()
export class OsController {
  constructor(
    private readonly user: LocalUser,
    private readonly commands: CommandBus,
  ) {}

  @Get('os/restart')
  @TextResponse()
  @ApiOperation({
    operationId: 'osRestart',
    summary:
      'Restarts Trove in-process: answers `restarting`, then closes the app the normal way and listens again on the same port ' +
      '(503 from an instance started without a restart handler)',
  })
  @ApiOkResponse({ schema: { type: 'string', example: 'restarting' } })
  restart(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.commands.execute(new RestartCommand(replySent(reply), crossSiteWithoutOrigin(request.headers)));
  }

  @Get('workstream_pattern_engine/processors/vision/status')
  @ApiOperation({
    operationId: 'workstreamPatternEngineProcessorsVisionStatus',
    summary:
      "The long-term memory's status: Trove's memory is its store (no screen capture), active since the process started; " +
      '`pieces mcp` needs an activation to run the memory tools',
  })
  @ApiOkResponse({ type: WorkstreamPatternEngineStatusWire })
  ltmStatus(): WorkstreamPatternEngineStatusWire {
    return ltmStatusWire();
  }

  @Post('os/sign_in')
  @HttpCode(200)
  @ApiOperation({ operationId: 'signIntoOS', summary: 'No accounts: the local user, already signed in' })
  signIn(): UserProfileWire {
    return userProfileWire(this.user.id);
  }

  @Post('os/sign_out')
  @HttpCode(200)
  @ApiOperation({ operationId: 'signOutOfOS', summary: 'No accounts: 400, there is nothing to sign out of' })
  signOut(): never {
    throw new BadRequestException(
      'Trove has no accounts: the local user is always signed in, so there is nothing to sign out of',
    );
  }

  @Post('allocations/connect')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'allocationsConnectNewCloud',
    summary: 'No Pieces cloud: the allocation stays DISCONNECTED',
  })
  @ApiBody({ required: false, schema: { type: 'object' } })
  connectCloud(): AllocationCloudWire {
    return noCloudWire(this.user.id);
  }

  @Post('allocations/disconnect')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'allocationsDisconnectCloud',
    summary: 'No Pieces cloud: the allocation is DISCONNECTED',
  })
  @ApiBody({ required: false, schema: { type: 'object' } })
  disconnectCloud(): AllocationCloudWire {
    return noCloudWire(this.user.id);
  }
}
