import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../../common/http/team-caller';
import { StoreLabelWire } from '../../common/wire/store-label.wire';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AboutQuery } from './queries/about.query';
import { TroveAboutWire } from './wire/about.wire';

export class TroveStoresWire {
  /** The caller's own store first, then each shared space they belong to; only the own store without users. */
  iterable: StoreLabelWire[];
  /** This Trove has users (docs/TEAMS.md): `X-Trove-Space` selects a space, `*` searches them all. */
  team: boolean;
}

@ApiTags('Web app')
@Controller('trove')
export class AboutController {
  constructor(private readonly queries: QueryBus) {}

  @Get('about')
  @ApiOperation({
    operationId: 'troveAbout',
    summary: "This Trove's version, storage (SQLite file and its size, or PostgreSQL), data directory and port",
  })
  @ApiOkResponse({ type: TroveAboutWire })
  about(): Promise<TroveAboutWire> {
    return this.queries.execute(new AboutQuery());
  }

  @Get('spaces')
  @ApiOperation({
    operationId: 'troveSpaces',
    summary:
      'The stores the caller may read: their own, then the shared spaces they belong to, with their role (team deployments)',
  })
  @ApiOkResponse({ type: TroveStoresWire })
  spaces(@Req() request: FastifyRequest): TroveStoresWire {
    const caller = callerOf(request.raw);
    return caller
      ? { iterable: caller.stores(), team: true }
      : { iterable: [{ space: null, name: 'mine', role: 'owner' }], team: false };
  }
}
