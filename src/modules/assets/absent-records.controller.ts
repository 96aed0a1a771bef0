import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { NotFound } from '../../common/errors/domain-errors';
import { Flag, uuidParam } from '../../common/wire/flags';
import { SearchInputDto } from './dto/workstream-summary.dto';

/** An empty collection (`Persons`, `Sensitives`, their searches). */
class NoRecordsWire {
  @ApiProperty({ type: [Object], maxItems: 0, description: 'always empty' })
  iterable: never[];
}

/**
 * Collections of records Trove holds none of, answered as they are: persons (in Pieces they come
 * from cloud accounts and integrations, which Trove does not have) and sensitives (Trove detects
 * no sensitive information yet; a later release adds detection). The collections and searches
 * are empty, a single record is a 404, and the identifier streams send their empty first frame;
 * creating one is a 501 that says why (src/common/http/not-offered.ts).
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

  @Get('sensitives')
  @ApiOperation({ operationId: 'sensitivesSnapshot', summary: 'Trove detects no sensitive information yet: always empty' })
  sensitives(): NoRecordsWire {
    return { iterable: [] };
  }

  @Get('sensitive/:sensitive')
  @ApiOperation({ operationId: 'sensitiveSnapshot', summary: 'Always 404: Trove detects no sensitive information yet' })
  sensitive(@Param('sensitive', uuidParam('sensitive')) sensitive: string): never {
    throw new NotFound(`sensitive ${sensitive} not found: Trove detects no sensitive information yet`);
  }

  @Post('sensitives/search')
  @HttpCode(200)
  @ApiOperation({ operationId: 'searchSensitives', summary: 'Trove detects no sensitive information yet: always empty' })
  @ApiBody({ type: SearchInputDto, required: false })
  searchSensitives(@Body() input: SearchInputDto): NoRecordsWire {
    void input;
    return { iterable: [] };
  }
}
