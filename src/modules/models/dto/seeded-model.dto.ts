import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ExternalMLProviderEnum, ModelFoundationEnum, ModelTypeEnum, ModelUsageEnum } from '../../../common/wire/enums';

export class ModelMaxTokensDto {
  @IsOptional() @IsInt() @Min(0) total?: number | null;
  @IsOptional() @IsInt() @Min(0) input?: number | null;
  @IsOptional() @IsInt() @Min(0) output?: number | null;
}
PassThrough(ModelMaxTokensDto.prototype, ['schema']);

/**
 * Trove's extension of SeededModel: what the custom model runs on and how. Without it, the
 * custom model is the provider model named by `unique` (`provider:name` or a name GET /models lists).
 */
export class CustomModelConfigurationDto {
  /** Id (or `provider:name`) of the model this one builds on. */
  @IsOptional() @IsString() @MaxLength(1024) base?: string;
  /** System prompt sent before every conversation. */
  @IsOptional() @IsString() @MaxLength(20_000) system?: string;
  @IsOptional() @IsNumber() @Min(0) @Max(2) temperature?: number;
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) max_output_tokens?: number;
}

export class SeededModelDto {
  @IsString()
  @MaxLength(256)
  name: string;

  @IsOptional() @IsString() @MaxLength(64) version?: string;
  @Nested(() => GroupedTimestampDto, { optional: true }) created?: GroupedTimestampDto;
  @IsOptional() @IsString() @MaxLength(10_000) description?: string;
  @IsOptional() @IsBoolean() cloud?: boolean;
  @OneOf(ModelTypeEnum, { optional: true }) type?: ModelTypeEnum;
  @OneOf(ModelUsageEnum, { optional: true }) usage?: ModelUsageEnum;
  @OneOf(ModelFoundationEnum, { optional: true }) foundation?: ModelFoundationEnum;
  @OneOf(ExternalMLProviderEnum, { optional: true }) provider?: ExternalMLProviderEnum;
  /** The provider model: `ollama:llama3.2`, `openai:gpt-4o-mini`, or a name GET /models lists. */
  @IsOptional() @IsString() @MaxLength(1024) unique?: string;
  @IsOptional() @IsBoolean() custom?: boolean;
  @IsOptional() @IsBoolean() cpu?: boolean;
  @IsOptional() @IsBoolean() downloaded?: boolean;
  @IsOptional() @IsString() @MaxLength(64) quantization?: string;
  @IsOptional() @IsNumber() parameters?: number | null;
  @Nested(() => ModelMaxTokensDto, { optional: true }) maxTokens?: ModelMaxTokensDto;
  @Nested(() => CustomModelConfigurationDto, { optional: true }) configuration?: CustomModelConfigurationDto;
}
PassThrough(SeededModelDto.prototype, ['schema', 'bytes', 'ram', 'capabilities', 'denied', 'organization']);

export class ModelDeleteCacheInputDto {}
PassThrough(ModelDeleteCacheInputDto.prototype, ['schema']);
