import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { uuidParam } from '../../common/wire/flags';
import { CreateModelCommand } from './commands/create-model.command';
import { DeleteModelCacheCommand } from './commands/delete-model-cache.command';
import { DeleteModelCommand } from './commands/delete-model.command';
import { UnloadModelsCommand } from './commands/unload-models.command';
import { ModelDeleteCacheInputDto, SeededModelDto } from './dto/seeded-model.dto';
import { ListModelsQuery } from './queries/list-models.query';
import { ModelDeleteCacheOutputWire, ModelWire, ModelsWire } from './wire/model.wire';

/** /models: list, create (custom), delete (custom only), delete cache (downloaded local LLMs), unload. */
@ApiTags('Models')
@Controller('models')
export class ModelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'modelsSnapshot',
    summary: 'Every model: the offline engine, the models of the configured providers and the custom models',
  })
  list(): Promise<ModelsWire> {
    return this.queries.execute(new ListModelsQuery());
  }

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'modelsCreateNewModel',
    summary: 'Register a custom model (custom: true); an identical seed returns the existing model',
  })
  @ApiBody({ type: SeededModelDto, required: false })
  create(@Body() seed: SeededModelDto): Promise<ModelWire> {
    return this.commands.execute(new CreateModelCommand(seed));
  }

  @Post('unload')
  @HttpCode(204)
  @ApiOperation({ operationId: 'unloadModels', summary: 'Unload every model that can be unloaded' })
  @ApiNoContentResponse({ description: 'unloaded' })
  unload(): Promise<void> {
    return this.commands.execute(new UnloadModelsCommand());
  }

  @Post(':model/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'modelsDeleteSpecificModel',
    summary: 'Delete a custom model (400 for any other model)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  delete(@Param('model', uuidParam('model')) model: string): Promise<void> {
    return this.commands.execute(new DeleteModelCommand(model));
  }

  @Post(':model/delete/cache')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'modelsDeleteSpecificModelCache',
    summary: 'Remove the downloaded files of a local LLM (400 for other models)',
  })
  @ApiBody({ type: ModelDeleteCacheInputDto, required: false })
  deleteCache(
    @Param('model', uuidParam('model')) model: string,
    @Body() input: ModelDeleteCacheInputDto,
  ): Promise<ModelDeleteCacheOutputWire> {
    void input;
    return this.commands.execute(new DeleteModelCacheCommand(model));
  }
}
