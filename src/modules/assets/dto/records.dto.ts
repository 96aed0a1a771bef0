import { IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { ANNOTATION_RELATIONS } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { AnnotationTypeEnum, MechanismEnum, TagCategoryEnum } from '../../../common/wire/enums';
import { ApplicationDto } from '../../system/dto/application.dto';
import { TagDto, WebsiteDto } from './asset.dto';

/** POST /tags/create: a tag by its text (the existing tag of that text comes back), linked to `asset` when given. */
export class SeededTagDto {
  @IsString()
  @MaxLength(256)
  text: string;

  @IsOptional()
  @IsUUID('all', { message: 'asset must be the UUID of an asset' })
  asset?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;

  @OneOf(TagCategoryEnum, { optional: true })
  category?: TagCategoryEnum;
}
PassThrough(SeededTagDto.prototype, ['schema', 'person', 'tags_vector', 'tagsVector']);

/** POST /websites/create: a website by its URL (the existing one of that URL comes back), linked to `asset` and/or `conversation`. */
export class SeededWebsiteDto {
  @IsString()
  @MaxLength(2048)
  url: string;

  @IsString()
  @MaxLength(512)
  name: string;

  @IsOptional()
  @IsUUID('all', { message: 'asset must be the UUID of an asset' })
  asset?: string;

  @IsOptional()
  @IsUUID('all', { message: 'conversation must be the UUID of a conversation' })
  conversation?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(SeededWebsiteDto.prototype, ['schema', 'person']);

/** POST /tags/exists, /websites/exists: the text of a tag or the URL of a website. */
export class ExistentMetadataDto {
  @IsString()
  @MaxLength(2048)
  value: string;
}
PassThrough(ExistentMetadataDto.prototype, ['schema']);

/** A round-tripped Tag (POST /tag/update): its text and category change. */
export class TagUpdateDto extends TagDto {}

/** A round-tripped Website (POST /website/update): its URL and name change. */
export class WebsiteUpdateDto extends WebsiteDto {}

/** POST /annotations/create: an annotation of an asset or of a conversation (exactly one of them). */
export class SeededRecordAnnotationDto {
  @OneOf(AnnotationTypeEnum)
  type: AnnotationTypeEnum;

  @IsString()
  @MaxLength(100_000)
  text: string;

  @IsOptional()
  @IsUUID('all', { message: 'asset must be the UUID of an asset' })
  asset?: string;

  @IsOptional()
  @IsUUID('all', { message: 'conversation must be the UUID of a conversation' })
  conversation?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(
  SeededRecordAnnotationDto.prototype,
  ANNOTATION_RELATIONS.filter((name) => name !== 'asset' && name !== 'conversation').concat([
    'workstream_summary',
    'workstreamSummary',
  ]),
);

/** `{id}` of a record an activity names (ReferencedAsset, ReferencedFormat, ReferencedConversation). */
export class ReferencedRecordDto {
  @IsUUID('all', { message: 'id must be a UUID' })
  id: string;
}
PassThrough(ReferencedRecordDto.prototype, ['schema', 'reference']);

/** SeededConnectorTracking, the event of an activity: each kind is kept as sent. */
export class TrackedEventDto {
  @IsOptional() @IsObject() format?: Record<string, unknown>;
  @IsOptional() @IsObject() asset?: Record<string, unknown>;
  @IsOptional() @IsObject() interaction?: Record<string, unknown>;
  @IsOptional() @IsObject() keyboard?: Record<string, unknown>;
  @IsOptional() @IsObject() session?: Record<string, unknown>;
  @IsOptional() @IsObject() assets?: Record<string, unknown>;
  @IsOptional() @IsObject() ml?: Record<string, unknown>;
  @IsOptional() @IsObject() adoption?: Record<string, unknown>;
  @IsOptional() @IsObject() conversation?: Record<string, unknown>;
  @IsOptional() @IsObject() conversation_message?: Record<string, unknown>;
  @IsOptional() @IsObject() workstream_summary?: Record<string, unknown>;
}
PassThrough(TrackedEventDto.prototype, ['schema']);

/** POST /activities/create: something that happened, reported by a client (Obsidian reports references and its install). */
export class SeededActivityDto {
  @Nested(() => TrackedEventDto)
  event: TrackedEventDto;

  @Nested(() => ApplicationDto)
  application: ApplicationDto;

  @Nested(() => ReferencedRecordDto, { optional: true })
  asset?: ReferencedRecordDto;

  @Nested(() => ReferencedRecordDto, { optional: true })
  format?: ReferencedRecordDto;

  @Nested(() => ReferencedRecordDto, { optional: true })
  conversation?: ReferencedRecordDto;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(SeededActivityDto.prototype, ['schema', 'user']);
