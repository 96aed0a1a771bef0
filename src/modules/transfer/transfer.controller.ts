import { Controller, Get, HttpCode, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInput } from '../../common/errors/domain-errors';
import { IMPORT_FORMATS, ImportFormat, ImportStoreCommand, isStream } from './commands/import-store.command';
import { ExportStoreQuery } from './queries/export-store.query';
import { ImportSummaryWire } from './wire/import-summary.wire';

/**
 * Whole-store export and import (docs/TRANSFER.md): Trove's own routes, outside the Pieces OS
 * interface, under `/trove/`. The access checks (API key, Host, Origin) and rate limits of every
 * route apply (configureApp).
 */
@ApiTags('Trove transfer')
@Controller('trove')
export class TransferController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('export')
  @ApiOperation({
    operationId: 'troveExport',
    summary:
      'The whole store as NDJSON (a header line, one line per record, an end line with counts and SHA-256), streamed from one snapshot; docs/TRANSFER.md',
  })
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({
    description: 'The export, streamed (Content-Disposition: attachment)',
    content: { 'application/x-ndjson': { schema: { type: 'string' } } },
  })
  async export(@Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    const file = await this.queries.execute(new ExportStoreQuery());
    // A client that goes away ends the export (and releases its snapshot) instead of leaving it waiting for room.
    reply.raw.once('close', () => {
      const body = file.getStream();
      if (!reply.raw.writableFinished && !body.destroyed) body.destroy();
    });
    return file;
  }

  @Post('import')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'troveImport',
    summary:
      'Imports a Trove export (application/x-ndjson, verified whole before anything is written), a VS Code snippet file or massCode db.json ' +
      '(application/octet-stream); idempotent; answers what was created and skipped per kind',
  })
  @ApiConsumes('application/x-ndjson', 'application/octet-stream')
  @ApiQuery({
    name: 'format',
    required: false,
    enum: IMPORT_FORMATS,
    description: 'ndjson (default): a Trove export; vscode: a VS Code snippet file; masscode: db.json',
  })
  @ApiQuery({
    name: 'name',
    required: false,
    type: String,
    description: "vscode: the file name (python.json, my.code-snippets): its language and the snippets' ids",
  })
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse({ type: ImportSummaryWire })
  async import(
    @Query('format') format: string | undefined,
    @Query('name') name: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ImportSummaryWire> {
    const kind = (format ?? 'ndjson') as ImportFormat;
    if (!IMPORT_FORMATS.includes(kind)) throw new InvalidInput(`format must be one of ${IMPORT_FORMATS.join(', ')}`);
    if (name !== undefined && (typeof name !== 'string' || name.length > 255 || name.includes('\u0000')))
      throw new InvalidInput('name must be a file name');
    const body = request.body;
    if (kind === 'ndjson' && body !== undefined && !isStream(body)) {
      // A JSON body went through the JSON parser: an export is never one JSON value.
      throw Object.assign(new Error('unsupported Content-Type: send the export as application/x-ndjson'), {
        statusCode: 415,
      });
    }
    try {
      return await this.commands.execute(new ImportStoreCommand(kind, name ?? 'snippets.code-snippets', body));
    } catch (error) {
      // The rest of a refused upload was not read: close the connection after the answer.
      if ((error as { drained?: boolean })?.drained === false) void reply.header('connection', 'close');
      throw error;
    }
  }
}
