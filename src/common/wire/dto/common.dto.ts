import { IsBoolean, IsInt, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { PassThrough } from './decorators';

export class GroupedTimestampDto {
  /** ISO-8601 date-time. */
  @IsISO8601({ strict: true })
  value: string;

  @IsOptional()
  @IsString()
  readable?: string;
}
PassThrough(GroupedTimestampDto.prototype, ['schema']);

export class TransferableStringDto {
  @IsOptional()
  @IsString()
  raw?: string;

  @IsOptional()
  @IsString()
  base64?: string;

  @IsOptional()
  @IsString()
  base64_url?: string;

  /** The TS property name some browser clients send. */
  @IsOptional()
  @IsString()
  base64Url?: string;

  @IsOptional()
  @IsString()
  data_url?: string;

  @IsOptional()
  @IsString()
  dataUrl?: string;
}
PassThrough(TransferableStringDto.prototype, ['schema']);

export class EmbeddedModelSchemaDto {
  @IsInt()
  migration: number;

  @IsString()
  @MaxLength(64)
  semantic: string;
}

export class ScoreDto {
  @IsInt()
  manual: number;

  @IsInt()
  automatic: number;

  @IsOptional() @IsInt() priority?: number;
  @IsOptional() @IsInt() reuse?: number;
  @IsOptional() @IsInt() update?: number;
  @IsOptional() @IsInt() reference?: number;
  @IsOptional() @IsInt() searched?: number;
}
PassThrough(ScoreDto.prototype, ['schema']);

export class IdentifiedDto {
  @IsString()
  @MaxLength(64)
  id: string;
}

export class BooleanFlagDto {
  @IsBoolean()
  value: boolean;
}
