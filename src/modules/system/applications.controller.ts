import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { uuidParam } from '../../common/wire/flags';
import { UpdateApplicationCommand } from './commands/update-application.command';
import { ApplicationUpdateDto } from './dto/application.dto';
import { GetApplicationQuery } from './queries/get-application.query';
import { ApplicationWire } from './wire/application.wire';

/**
 * One application: read it, change its settings (the SDK's ApplicationApi and ApplicationsApi;
 * Obsidian's settings sync). Changes are announced on WS /applications/stream/identifiers.
 */
@ApiTags('System')
@Controller()
export class ApplicationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('applications/:application')
  @ApiOperation({
    operationId: 'applicationsSpecificApplicationSnapshot',
    summary: 'One application (404 when Trove does not know it)',
  })
  @ApiOkResponse({ type: ApplicationWire })
  one(@Param('application', uuidParam('application')) application: string): Promise<ApplicationWire> {
    return this.queries.execute(new GetApplicationQuery(application));
  }

  @Post('application/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'applicationUpdate',
    summary:
      "Change an application's settings (capabilities, privacy, onboarded); its name, version and platform are its identity (400). Announced on /applications/stream/identifiers",
  })
  @ApiBody({ type: ApplicationUpdateDto, required: false })
  @ApiOkResponse({ type: ApplicationWire })
  update(@Body() application: ApplicationUpdateDto): Promise<ApplicationWire> {
    return this.commands.execute(new UpdateApplicationCommand(application));
  }
}
