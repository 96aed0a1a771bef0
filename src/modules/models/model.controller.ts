import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { uuidParam } from '../../common/wire/flags';
import { CancelModelDownloadCommand, DownloadModelCommand } from './commands/download-model.command';
import { LoadModelCommand } from './commands/load-model.command';
import { GetModelQuery } from './queries/get-model.query';
import { ModelWire } from './wire/model.wire';

/** /model/{model}: one model, load, unload, download (the SDK's ModelApi; beyond the core interface). */
@ApiTags('Model')
@Controller('model')
export class ModelController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(':model')
  @ApiOperation({ operationId: 'modelsSpecificModelSnapshot', summary: 'One model' })
  get(@Param('model', uuidParam('model')) model: string): Promise<ModelWire> {
    return this.queries.execute(new GetModelQuery(model));
  }

  @Post(':model/load')
  @HttpCode(200)
  @ApiOperation({ operationId: 'modelSpecificModelLoad', summary: 'Load a local model into memory' })
  load(@Param('model', uuidParam('model')) model: string): Promise<ModelWire> {
    return this.commands.execute(new LoadModelCommand(model, true));
  }

  @Post(':model/download')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'modelSpecificModelDownload',
    summary:
      "Download a local model through the provider that can (Ollama's pull), in the background: the model with downloading true; " +
      'WS /model/{model}/download/progress follows it. Already downloaded: the model as it is. 400 when nothing here can download it',
  })
  download(@Param('model', uuidParam('model')) model: string): Promise<ModelWire> {
    return this.commands.execute(new DownloadModelCommand(model));
  }

  @Post(':model/download/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'modelSpecificModelDownloadCancel',
    summary: "Cancel the model's download under way (the pull is aborted); the model",
  })
  cancelDownload(@Param('model', uuidParam('model')) model: string): Promise<ModelWire> {
    return this.commands.execute(new CancelModelDownloadCommand(model));
  }

  @Post(':model/unload')
  @HttpCode(200)
  @ApiOperation({ operationId: 'modelSpecificModelUnload', summary: 'Unload a model from memory' })
  unload(@Param('model', uuidParam('model')) model: string): Promise<ModelWire> {
    return this.commands.execute(new LoadModelCommand(model, false));
  }
}
