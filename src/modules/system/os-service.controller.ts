import { BadRequestException, Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { replySent } from '../../common/http/reply-sent';
import { TerminateCommand } from './commands/terminate.command';
import { FilePickerInputDto, UncheckedOSServerUpdateDto } from './dto/os.dto';
import { OSServerUpdateStatusWire } from './wire/os.wire';

const NO_PICKER =
  'Trove is a server: it cannot open a file or folder picker on your desktop. Attach files by path instead ' +
  '(POST /anchors/create with their fullpath), or pick them in your editor and send their paths';

/**
 * What the plugins ask of the desktop service about itself (beyond the core interface), answered for
 * what Trove is: a server, updated through its own releases, that cannot show anything on the
 * user's desktop, and that only its local user may stop (docs/CLIENTS.md).
 */
@ApiTags('System')
@Controller('os')
export class OsServiceController {
  constructor(private readonly commands: CommandBus) {}

  @Post('terminate')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'osTerminate',
    summary:
      'Stops Trove (a plugin\'s "Close PiecesOS"): in local mode (loopback address, no API keys) it answers 204, then shuts down ' +
      'as on SIGINT and removes its port file; 403 when Trove is shared (API keys, or another address)',
  })
  @ApiNoContentResponse({ description: 'shutting down' })
  terminate(@Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    return this.commands.execute(new TerminateCommand(replySent(reply)));
  }

  @Post('update/check')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'osUpdateCheck',
    summary:
      'Trove is updated through its own releases (npm, Docker), never through this route: UP_TO_DATE, nothing to download',
  })
  @ApiBody({ type: UncheckedOSServerUpdateDto, required: false })
  @ApiOkResponse({ type: OSServerUpdateStatusWire })
  updateCheck(@Body() input: UncheckedOSServerUpdateDto): OSServerUpdateStatusWire {
    void input;
    return { status: 'UP_TO_DATE' };
  }

  @Post('filesystem/files/pick')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'osFilesystemPickFiles',
    summary: 'No file picker on a server: 400, saying so (as POST /os/sign_out says there are no accounts)',
  })
  @ApiBody({ type: FilePickerInputDto, required: false })
  pickFiles(@Body() input: FilePickerInputDto): never {
    void input;
    throw new BadRequestException(NO_PICKER);
  }

  @Post('filesystem/folders/pick')
  @HttpCode(200)
  @ApiOperation({ operationId: 'osFilesystemPickFolders', summary: 'No folder picker on a server: 400, saying so' })
  pickFolders(): never {
    throw new BadRequestException(NO_PICKER);
  }
}
