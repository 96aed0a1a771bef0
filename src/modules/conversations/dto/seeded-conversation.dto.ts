import { IsArray, IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { GroupedTimestampDto, TransferableStringDto, ANNOTATION_RELATIONS } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import {
  AnnotationTypeEnum,
  ConversationMessageSentimentEnum,
  ConversationTypeEnum,
  MechanismEnum,
  PlatformEnum,
  QGPTConversationMessageRoleEnum,
} from '../../../common/wire/enums';

/** AnchorTypeEnum of the SDK. */
export const AnchorTypeEnum = ['UNKNOWN', 'FILE', 'DIRECTORY'] as const;
export type AnchorTypeEnum = (typeof AnchorTypeEnum)[number];

export class ConversationMessageFragmentDto {
  @Nested(() => TransferableStringDto)
  string: TransferableStringDto;
}
PassThrough(ConversationMessageFragmentDto.prototype, ['schema', 'bytes', 'metadata']);

/** One initial message: a role and its text in `fragment.string.raw`. */
export class SeededConversationMessageDto {
  @OneOf(QGPTConversationMessageRoleEnum)
  role: QGPTConversationMessageRoleEnum;

  @Nested(() => ConversationMessageFragmentDto)
  fragment: ConversationMessageFragmentDto;

  @OneOf(ConversationMessageSentimentEnum, { optional: true })
  sentiment?: ConversationMessageSentimentEnum;

  @Nested(() => GroupedTimestampDto, { optional: true })
  created?: GroupedTimestampDto;
}
PassThrough(SeededConversationMessageDto.prototype, [
  'schema',
  'model',
  'conversation',
  'assets',
  'ranges',
  'summaries',
  'tags',
  'messages',
  'workstream_events',
  'sources',
  'anchors',
  'agent',
]);

export class SeededConversationAnnotationDto {
  @OneOf(AnnotationTypeEnum)
  type: AnnotationTypeEnum;

  @IsString()
  @MaxLength(100_000)
  text: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(SeededConversationAnnotationDto.prototype, [...ANNOTATION_RELATIONS, 'workstream_summary']);

/** A file or directory to anchor the new conversation to. */
export class ConversationSeededAnchorDto {
  @OneOf(AnchorTypeEnum)
  type: AnchorTypeEnum;

  @IsString()
  @MaxLength(4096)
  fullpath: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string;

  @IsOptional()
  @IsBoolean()
  watch?: boolean;

  @OneOf(PlatformEnum, { optional: true })
  platform?: PlatformEnum;
}
PassThrough(ConversationSeededAnchorDto.prototype, ['schema', 'asset', 'annotations', 'conversation', 'persons']);

/** `{id}` of an existing record (ReferencedAsset, ReferencedWebsite, ...); `reference` is not read. */
export class ConversationReferenceDto {
  @IsUUID()
  id: string;
}
PassThrough(ConversationReferenceDto.prototype, ['schema', 'reference']);

export class ConversationReferencesDto {
  @IsArray()
  @Nested(() => ConversationReferenceDto, { each: true })
  iterable: ConversationReferenceDto[];
}
PassThrough(ConversationReferencesDto.prototype, ['schema', 'indices', 'score', 'continuous']);

/**
 * The input of POST /conversations/create. Everything is optional: no body makes an
 * empty COPILOT conversation without a name.
 */
export class SeededConversationDto {
  @OneOf(ConversationTypeEnum, { optional: true })
  type?: ConversationTypeEnum;

  /** May be null: the conversation is named later (rename) or stays unnamed. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string | null;

  @IsOptional()
  @IsBoolean()
  favorited?: boolean;

  @Nested(() => SeededConversationMessageDto, { optional: true, each: true })
  messages?: SeededConversationMessageDto[];

  @Nested(() => SeededConversationAnnotationDto, { optional: true, each: true })
  annotations?: SeededConversationAnnotationDto[];

  /** Assets to link (FlattenedAssets). */
  @Nested(() => ConversationReferencesDto, { optional: true })
  assets?: ConversationReferencesDto;

  /** Existing websites to link (FlattenedWebsites). */
  @Nested(() => ConversationReferencesDto, { optional: true })
  websites?: ConversationReferencesDto;

  @Nested(() => ConversationSeededAnchorDto, { optional: true, each: true })
  anchors?: ConversationSeededAnchorDto[];
}
PassThrough(SeededConversationDto.prototype, ['schema', 'application', 'model', 'pipeline', 'demo']);
