import { IsInt, IsISO8601, IsOptional, IsString } from 'class-validator';
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

/** The relations an annotation's wire form carries that Trove keeps as given (not validated): every annotation DTO passes them through. */
export const ANNOTATION_RELATIONS = [
  'schema',
  'asset',
  'person',
  'model',
  'pseudo',
  'favorited',
  'anchor',
  'conversation',
  'messages',
  'assets',
  'persons',
  'anchors',
  'conversations',
  'summaries',
  'websites',
  'tags',
  'workstream_events',
];
