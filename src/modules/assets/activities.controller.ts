import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { CreateActivityCommand } from './commands/create-activity.command';
import { DeleteActivityCommand } from './commands/delete-activity.command';
import { SeededActivityDto } from './dto/records.dto';
import { GetActivityQuery } from './queries/get-activity.query';
import { ListActivitiesQuery } from './queries/list-activities.query';
import { ActivitiesWire, ActivityWire } from './wire/activity.wire';

/**
 * Activities as a collection, beyond the core interface: the SDKs' ActivitiesApi and ActivityApi.
 * Trove records what happens to assets itself (GET /asset/{asset}/activities); clients report
 * more (Obsidian: what the user referenced, its install), and the examples list them all.
 */
@ApiTags('Activities')
@Controller()
export class ActivitiesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('activities')
  @ApiOperation({ operationId: 'activitiesSnapshot', summary: 'Every activity, most recent first (streamed)' })
  @ApiOkResponse({ type: ActivitiesWire })
  list(@Flag('transferables') transferables?: boolean, @Flag('pseudo') pseudo?: boolean): Promise<StreamableFile> {
    void transferables; // an activity carries its asset flattened: no content to omit
    void pseudo;
    return this.queries.execute(new ListActivitiesQuery());
  }

  @Post('activities/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'activitiesCreateNewActivity',
    summary: 'Record an activity a client reports (its event as sent)',
  })
  @ApiBody({ type: SeededActivityDto, required: false })
  @ApiOkResponse({ type: ActivityWire })
  create(@Body() seed: SeededActivityDto, @Flag('transferables') transferables?: boolean): Promise<ActivityWire> {
    void transferables;
    return this.commands.execute(new CreateActivityCommand(seed));
  }

  @Post('activities/:activity/delete')
  @HttpCode(204)
  @ApiOperation({ operationId: 'activitiesDeleteSpecificActivity', summary: 'Delete one activity' })
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Param('activity', uuidParam('activity')) activity: string): Promise<void> {
    await this.commands.execute(new DeleteActivityCommand(activity));
  }

  @Get('activity/identifiers')
  @ApiOperation({
    operationId: 'activityIdentifiersSnapshot',
    summary: 'Ids of every activity, most recent first (streamed)',
  })
  identifiers(@Flag('pseudo') pseudo?: boolean): Promise<StreamableFile> {
    void pseudo;
    return this.queries.execute(new ListActivitiesQuery(true));
  }

  @Get('activity/:activity')
  @ApiOperation({ operationId: 'activitiesSpecificActivitySnapshot', summary: 'One activity (404 when unknown)' })
  @ApiOkResponse({ type: ActivityWire })
  get(
    @Param('activity', uuidParam('activity')) activity: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<ActivityWire> {
    void transferables;
    return this.queries.execute(new GetActivityQuery(activity));
  }
}
