import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InactiveOSServerAppletDto, TerminatingOSServerAppletDto } from './dto/applet.dto';
import { LaunchAppletCommand, SERVED } from './commands/launch-applet.command';
import { RestartAppletCommand } from './commands/restart-applet.command';
import { TerminateAppletCommand } from './commands/terminate-applet.command';
import { ActiveOSServerAppletWire } from './wire/applet.wire';

/** The editor plugins' applets: each served by Trove's web app on a port of its own (docs/APP.md). */
@ApiTags('Applets')
@Controller('os/applet')
export class AppletsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('launch')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'osAppletLaunch',
    summary: `Opens the applet on a port of its own (the same one while it runs) and says which; Trove serves ${SERVED} (404 for any other type)`,
  })
  @ApiOkResponse({ type: ActiveOSServerAppletWire })
  launch(@Body() input: InactiveOSServerAppletDto): Promise<ActiveOSServerAppletWire> {
    return this.commands.execute(new LaunchAppletCommand(input.type));
  }

  @Post('restart')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'osAppletRestart',
    summary:
      "Closes the applet's listener and its connections and opens it again on the port it had (when free; a `port` Trove did not give this applet is not bound)",
  })
  @ApiOkResponse({ type: ActiveOSServerAppletWire })
  restart(@Body() input: InactiveOSServerAppletDto): Promise<ActiveOSServerAppletWire> {
    return this.commands.execute(new RestartAppletCommand(input.type));
  }

  @Post('terminate')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'osAppletTerminate',
    summary: "Closes the applet's listener and its connections (nothing when it is not running)",
  })
  @ApiNoContentResponse({ description: 'closed' })
  async terminate(@Body() input: TerminatingOSServerAppletDto): Promise<void> {
    await this.commands.execute(new TerminateAppletCommand(input.type));
  }
}
