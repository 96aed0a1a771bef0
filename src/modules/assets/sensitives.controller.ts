import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { uuidParam } from '../../common/wire/flags';
import { SensitiveRecords } from './sensitives/sensitive-records';
import { SensitiveWire, SensitivesWire } from './wire/asset.wire';

/**
 * The secrets Trove found in assets' texts (SDK SensitivesApi / SensitiveApi): listed, read one
 * at a time, and dismissed ("not a secret"). Found at every change of an asset's text
 * (AssetSecrets); `text` is the secret masked, never the secret.
 */
@ApiTags('Sensitives')
@Controller()
export class SensitivesController {
  constructor(private readonly records: SensitiveRecords) {}

  @Get('sensitives')
  @ApiOperation({ operationId: 'sensitivesSnapshot', summary: 'Every secret found in an asset and not dismissed' })
  sensitives(): Promise<SensitivesWire> {
    return this.records.list();
  }

  @Get('sensitive/:sensitive')
  @ApiOperation({
    operationId: 'sensitiveSnapshot',
    summary: 'One secret found in an asset (404 once dismissed or gone from its text)',
  })
  sensitive(@Param('sensitive', uuidParam('sensitive')) sensitive: string): Promise<SensitiveWire> {
    return this.records.get(sensitive);
  }

  @Post('sensitives/:sensitive/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'sensitivesDeleteSensitive',
    summary: 'Dismiss a secret (the user says it is none): it stays dismissed while its value is in the text',
  })
  @ApiNoContentResponse({ description: 'dismissed' })
  async delete(@Param('sensitive', uuidParam('sensitive')) sensitive: string): Promise<void> {
    await this.records.dismiss(sensitive);
  }
}
