import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { NotFound } from '../../common/errors/domain-errors';
import { Flag, uuidParam } from '../../common/wire/flags';
import { SearchInputDto } from './dto/workstream-summary.dto';

/** An empty collection (`Persons`, their search; the search of `Sensitives`). */
class NoRecordsWire {
  @ApiProperty({ type: [Object], maxItems: 0, description: 'always empty' })
  iterable: never[];
}

/**
 * Collections of records Trove holds none of, answered as they are: persons (in Pieces they come
 * from cloud accounts and integrations, which Trove does not have): the collection and its
 * search are empty, a single record is a 404, and the identifier stream sends its empty first
 * frame; creating one is a 501 that says why (src/common/http/not-offered.ts). The search of
 * sensitives is empty too (Trove lists them with GET /sensitives: SensitivesController).
 */
@ApiTags('Persons and sensitives')
@Controller()
export class AbsentRecordsController {
  @Get('persons')
  @ApiOperation({ operationId: 'personsSnapshot', summary: 'Trove keeps no persons: always empty' })
  persons(@Flag('transferables') transferables?: boolean): NoRecordsWire {
    void transferables;
    return { iterable: [] };
  }

  @Get('person/:person')
  @ApiOperation({ operationId: 'personSnapshot', summary: 'Always 404: Trove keeps no persons' })
  person(@Param('person', uuidParam('person')) person: string): never {
    throw new NotFound(`person ${person} not found: Trove keeps no person records`);
  }

  @Post('persons/search')
  @HttpCode(200)
  @ApiOperation({ operationId: 'searchPersons', summary: 'Trove keeps no persons: always empty' })
  @ApiBody({ type: SearchInputDto, required: false })
  searchPersons(@Body() input: SearchInputDto): NoRecordsWire {
    void input;
    return { iterable: [] };
  }

  @Post('sensitives/search')
  @HttpCode(200)
  @ApiOperation({ operationId: 'searchSensitives', summary: 'Not searched: always empty (GET /sensitives lists them)' })
  @ApiBody({ type: SearchInputDto, required: false })
  searchSensitives(@Body() input: SearchInputDto): NoRecordsWire {
    void input;
    return { iterable: [] };
  }
}
