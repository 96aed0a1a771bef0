import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AboutQuery } from './queries/about.query';
import { TroveAboutWire } from './wire/about.wire';

@ApiTags('Web app')
@Controller('trove')
export class AboutController {
  constructor(private readonly queries: QueryBus) {}

  @Get('about')
  @ApiOperation({ operationId: 'troveAbout', summary: "This Trove's version, storage (SQLite file and its size, or PostgreSQL), data directory and port" })
  @ApiOkResponse({ type: TroveAboutWire })
  about(): Promise<TroveAboutWire> {
    return this.queries.execute(new AboutQuery());
  }
}
