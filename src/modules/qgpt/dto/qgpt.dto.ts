import { IsArray, IsBoolean, IsNumber, IsOptional, IsString, IsUUID, MaxLength, ArrayMaxSize } from 'class-validator';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { QGPTConversationMessageRoleEnum } from '../../../common/wire/enums';
import { SeedDto } from '../../assets/dto/seed.dto';

const QUERY_MAX = 20_000;

export class SeedsDto {
  @Nested(() => SeedDto, { each: true })
  @ArrayMaxSize(1000)
  iterable: SeedDto[];
}
PassThrough(SeedsDto.prototype, ['schema']);

export class FlattenedAssetRefDto {
  @IsUUID('all', { message: 'assets.iterable[].id must be a UUID' })
  id: string;
}
PassThrough(FlattenedAssetRefDto.prototype, ['schema', 'reference']);

export class FlattenedAssetRefsDto {
  @Nested(() => FlattenedAssetRefDto, { each: true })
  @ArrayMaxSize(10_000)
  iterable: FlattenedAssetRefDto[];
}
PassThrough(FlattenedAssetRefsDto.prototype, ['schema', 'indices', 'score']);

export class FlattenedAnchorRefDto {
  @IsUUID('all', { message: 'anchors.iterable[].id must be the UUID of an anchor (POST /anchors/create)' })
  id: string;
}
PassThrough(FlattenedAnchorRefDto.prototype, ['schema', 'reference']);

export class FlattenedAnchorRefsDto {
  @Nested(() => FlattenedAnchorRefDto, { each: true })
  @ArrayMaxSize(100)
  iterable: FlattenedAnchorRefDto[];
}
PassThrough(FlattenedAnchorRefsDto.prototype, ['schema', 'indices', 'score']);

export class QGPTRelevanceInputOptionsDto {
  /** The whole store is the query space. */
  @IsOptional() @IsBoolean() database?: boolean;
  /** Also answer the query from the relevant snippets. */
  @IsOptional() @IsBoolean() question?: boolean;
}
PassThrough(QGPTRelevanceInputOptionsDto.prototype, ['schema', 'pipeline', 'behavior']);

/** The query spaces: `paths` (absolute local paths), `anchors`, `seeds`, `assets`, `options.database`; none: the whole store. */
export class QGPTRelevanceInputDto {
  @IsString()
  @MaxLength(QUERY_MAX)
  query: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  paths?: string[];

  @Nested(() => SeedsDto, { optional: true })
  seeds?: SeedsDto;

  @Nested(() => FlattenedAssetRefsDto, { optional: true })
  assets?: FlattenedAssetRefsDto;

  /** Files and directories by anchor (POST /anchors/create), read like `paths`. */
  @Nested(() => FlattenedAnchorRefsDto, { optional: true })
  anchors?: FlattenedAnchorRefsDto;

  @Nested(() => QGPTRelevanceInputOptionsDto, { optional: true })
  options?: QGPTRelevanceInputOptionsDto;

  @IsOptional() @IsString() @MaxLength(64) application?: string;
  /** A model id, `provider:name`, or a name GET /models lists; the configured default otherwise. */
  @IsOptional() @IsString() @MaxLength(1024) model?: string;
}
PassThrough(QGPTRelevanceInputDto.prototype, ['schema', 'messages', 'temporal', 'sources', 'summaries']);

export class ReferencedAssetRefDto {
  @IsUUID('all', { message: 'asset.id must be a UUID' })
  id: string;
}
PassThrough(ReferencedAssetRefDto.prototype, ['schema', 'reference']);

/** A relevant snippet: an id relevance returned, or a seed with fragment.string.raw. */
export class RelevantQGPTSeedDto {
  @IsOptional() @IsString() @MaxLength(64) id?: string;
  @Nested(() => SeedDto, { optional: true }) seed?: SeedDto;
  @IsOptional() @IsString() @MaxLength(4096) path?: string;
  @Nested(() => ReferencedAssetRefDto, { optional: true }) asset?: ReferencedAssetRefDto;
  @IsOptional() @IsNumber() score?: number;
}
PassThrough(RelevantQGPTSeedDto.prototype, ['schema', 'anchor', 'location']);

export class RelevantQGPTSeedsDto {
  @Nested(() => RelevantQGPTSeedDto, { each: true })
  @ArrayMaxSize(1000)
  iterable: RelevantQGPTSeedDto[];
}
PassThrough(RelevantQGPTSeedsDto.prototype, ['schema']);

export class QGPTQuestionInputDto {
  @IsString()
  @MaxLength(QUERY_MAX)
  query: string;

  @Nested(() => RelevantQGPTSeedsDto)
  relevant: RelevantQGPTSeedsDto;

  @IsOptional() @IsString() @MaxLength(64) application?: string;
  @IsOptional() @IsString() @MaxLength(1024) model?: string;
}
PassThrough(QGPTQuestionInputDto.prototype, [
  'schema',
  'messages',
  'pipeline',
  'temporal',
  'sources',
  'summaries',
  'behavior',
]);

export class QGPTQuestionAnswerDto {
  @IsNumber() score: number;
  @IsString() @MaxLength(200_000) text: string;
}
PassThrough(QGPTQuestionAnswerDto.prototype, ['schema']);

export class QGPTHintsInputDto {
  @IsOptional() @IsString() @MaxLength(QUERY_MAX) query?: string;
  @Nested(() => QGPTQuestionAnswerDto, { optional: true }) answer?: QGPTQuestionAnswerDto;
  @Nested(() => RelevantQGPTSeedsDto) relevant: RelevantQGPTSeedsDto;
  @IsOptional() @IsString() @MaxLength(64) application?: string;
  @IsOptional() @IsString() @MaxLength(1024) model?: string;
}
PassThrough(QGPTHintsInputDto.prototype, ['schema']);

export class QGPTConversationMessageDto {
  @IsString() @MaxLength(200_000) text: string;
  @OneOf(QGPTConversationMessageRoleEnum) role: QGPTConversationMessageRoleEnum;
  @Nested(() => GroupedTimestampDto, { optional: true }) timestamp?: GroupedTimestampDto;
}
PassThrough(QGPTConversationMessageDto.prototype, ['schema']);

export class QGPTConversationDto {
  @IsOptional()
  @Nested(() => QGPTConversationMessageDto, { each: true, optional: true })
  @ArrayMaxSize(1000)
  iterable?: QGPTConversationMessageDto[];
}
PassThrough(QGPTConversationDto.prototype, ['schema']);

export class QGPTRepromptInputDto {
  @IsString() @MaxLength(QUERY_MAX) query: string;
  @Nested(() => QGPTConversationDto) conversation: QGPTConversationDto;
  @IsOptional() @IsString() @MaxLength(64) application?: string;
  @IsOptional() @IsString() @MaxLength(1024) model?: string;
}
PassThrough(QGPTRepromptInputDto.prototype, ['schema', 'pipeline']);

export class QGPTPersonsRelatedInputDto {
  @Nested(() => SeedDto, { optional: true }) seed?: SeedDto;
  @Nested(() => QGPTConversationDto, { optional: true }) conversation?: QGPTConversationDto;
  @IsOptional() @IsString() @MaxLength(64) application?: string;
  @IsOptional() @IsString() @MaxLength(1024) model?: string;
}
PassThrough(QGPTPersonsRelatedInputDto.prototype, ['schema']);
