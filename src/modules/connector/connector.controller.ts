import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { TextResponse } from '../../common/wire/text';
import { ConnectCommand } from './commands/connect.command';
import { ReactCommand } from './commands/react.command';
import { RecordIntentionCommand } from './commands/record-intention.command';
import { SetOnboardedCommand } from './commands/set-onboarded.command';
import { TrackCommand } from './commands/track.command';
import { ConnectedApplicationGuard } from './connected-application.guard';
import {
  ReactionDto,
  SeededConnectorAssetDto,
  SeededConnectorConnectionDto,
  SeededConnectorCreationDto,
  SeededConnectorTrackingDto,
} from './dto/connector.dto';
import { SuggestQuery } from './queries/suggest.query';
import { ContextWire } from './wire/context.wire';
import { SuggestionWire } from './wire/suggestion.wire';

const APPLICATION = ApiParam({
  name: 'application',
  description:
    'The Application id returned by POST /connect (400 when not a registered integration, 401 when it never connected)',
  schema: { type: 'string', format: 'uuid' },
});

/** The integration handshake and what integrations report (the interface's Connector group). */
@ApiTags('Connector')
@Controller()
export class ConnectorController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post('connect')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'connect',
    summary: 'Connect an integration: records its Application and answers the Context',
  })
  @ApiBody({ type: SeededConnectorConnectionDto, required: false })
  connect(@Body() connection: SeededConnectorConnectionDto): Promise<ContextWire> {
    return this.commands.execute(new ConnectCommand(connection));
  }

  @Post(':application/intention')
  @HttpCode(200)
  @UseGuards(ConnectedApplicationGuard)
  @TextResponse()
  @APPLICATION
  @ApiOperation({ operationId: 'intention', summary: 'Keep a snippet for later comparison; answers its id as text' })
  @ApiBody({ type: SeededConnectorAssetDto, required: false })
  @ApiOkResponse({ schema: { type: 'string', format: 'uuid' } })
  intention(@Param('application') application: string, @Body() asset: SeededConnectorAssetDto): Promise<string> {
    return this.commands.execute(new RecordIntentionCommand(application, asset));
  }

  @Post(':application/onboarded')
  @HttpCode(200)
  @UseGuards(ConnectedApplicationGuard)
  @TextResponse()
  @APPLICATION
  @ApiOperation({
    operationId: 'onboarded',
    summary: 'Store whether the application is onboarded (JSON boolean body; none means true)',
  })
  @ApiBody({ schema: { type: 'boolean' }, required: false })
  @ApiOkResponse({ schema: { type: 'string', example: 'OK' } })
  onboarded(@Param('application') application: string, @Body() onboarded: boolean): Promise<string> {
    return this.commands.execute(new SetOnboardedCommand(application, onboarded));
  }

  @Post(':application/reaction')
  @HttpCode(200)
  @UseGuards(ConnectedApplicationGuard)
  @TextResponse()
  @APPLICATION
  @ApiOperation({ operationId: 'react', summary: 'Answer a Suggestion: the new asset id when saved, otherwise OK' })
  @ApiBody({ type: ReactionDto, required: false })
  @ApiOkResponse({ schema: { type: 'string', example: 'OK' } })
  react(@Param('application') application: string, @Body() reaction: ReactionDto): Promise<string> {
    return this.commands.execute(new ReactCommand(application, reaction));
  }

  @Post(':application/suggestion')
  @HttpCode(200)
  @UseGuards(ConnectedApplicationGuard)
  @APPLICATION
  @ApiOperation({
    operationId: 'suggest',
    summary: 'A snippet was copied: reuse a saved asset (duplicates best first), save it, or neither',
  })
  @ApiBody({ type: SeededConnectorCreationDto, required: false })
  suggest(
    @Param('application') application: string,
    @Body() creation: SeededConnectorCreationDto,
  ): Promise<SuggestionWire> {
    return this.queries.execute(new SuggestQuery(application, creation));
  }

  @Post(':application/track')
  @HttpCode(200)
  @UseGuards(ConnectedApplicationGuard)
  @TextResponse()
  @APPLICATION
  @ApiOperation({
    operationId: 'track',
    summary: 'Record tracking events of the application (and of the asset they name)',
  })
  @ApiBody({ type: SeededConnectorTrackingDto, required: false })
  @ApiOkResponse({ schema: { type: 'string', example: 'OK' } })
  track(@Param('application') application: string, @Body() tracking: SeededConnectorTrackingDto): Promise<string> {
    return this.commands.execute(new TrackCommand(application, tracking));
  }
}
