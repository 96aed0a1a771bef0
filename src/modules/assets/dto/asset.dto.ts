import { IsArray, IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import {
  GroupedTimestampDto,
  ScoreDto,
  TransferableStringDto,
  ANNOTATION_RELATIONS,
} from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import {
  AnnotationTypeEnum,
  ClassificationGenericEnum,
  ClassificationSpecificEnum,
  MechanismEnum,
  Role,
  TagCategoryEnum,
} from '../../../common/wire/enums';
import { ApplicationDto } from '../../system/dto/application.dto';

export class ClassificationDto {
  @OneOf(ClassificationGenericEnum)
  generic: ClassificationGenericEnum;

  @OneOf(ClassificationSpecificEnum)
  specific: ClassificationSpecificEnum;
}
PassThrough(ClassificationDto.prototype, ['schema', 'rendering']);

export class FragmentFormatDto {
  @Nested(() => TransferableStringDto, { optional: true })
  string?: TransferableStringDto;
}
PassThrough(FragmentFormatDto.prototype, ['schema', 'bytes', 'metadata']);

export class FormatDto {
  @IsString()
  @MaxLength(64)
  id: string;

  @Nested(() => ClassificationDto, { optional: true })
  classification?: ClassificationDto;

  @OneOf(Role, { optional: true })
  role?: Role;

  @Nested(() => FragmentFormatDto, { optional: true })
  fragment?: FragmentFormatDto;

  @Nested(() => ApplicationDto, { optional: true })
  application?: ApplicationDto;
}
PassThrough(FormatDto.prototype, [
  'schema',
  'creator',
  'icon',
  'asset',
  'bytes',
  'created',
  'updated',
  'deleted',
  'synced',
  'cloud',
  'file',
  'analysis',
  'relationship',
  'activities',
]);

export class FormatsDto {
  @Nested(() => FormatDto, { each: true })
  iterable: FormatDto[];
}
PassThrough(FormatsDto.prototype, ['schema', 'indices', 'score']);

export class AnnotationDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @OneOf(AnnotationTypeEnum)
  type: AnnotationTypeEnum;

  @IsString()
  @MaxLength(100_000)
  text: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(AnnotationDto.prototype, [...ANNOTATION_RELATIONS, 'created', 'updated', 'deleted', 'score', 'summary']);

export class AnnotationsDto {
  @Nested(() => AnnotationDto, { each: true })
  iterable: AnnotationDto[];
}
PassThrough(AnnotationsDto.prototype, ['schema', 'indices', 'score']);

export class TagDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @IsString()
  @MaxLength(256)
  text: string;

  @OneOf(TagCategoryEnum, { optional: true })
  category?: TagCategoryEnum;
}
PassThrough(TagDto.prototype, [
  'schema',
  'mechanisms',
  'assets',
  'created',
  'updated',
  'deleted',
  'relationship',
  'interactions',
  'persons',
  'score',
  'summaries',
  'workstream_events',
  'messages',
  'annotations',
  'tags_vector',
  'tagsVector',
  'source_windows',
  'websites',
  'anchors',
  'conversations',
]);

export class TagsDto {
  @Nested(() => TagDto, { each: true })
  iterable: TagDto[];
}
PassThrough(TagsDto.prototype, ['schema', 'indices', 'score']);

export class WebsiteDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @IsString()
  @MaxLength(2048)
  url: string;

  @IsString()
  @MaxLength(512)
  name: string;
}
PassThrough(WebsiteDto.prototype, [
  'schema',
  'assets',
  'created',
  'updated',
  'deleted',
  'mechanisms',
  'interactions',
  'persons',
  'conversations',
  'score',
  'summaries',
  'messages',
  'annotations',
  'workstream_events',
  'sources',
  'source_windows',
  'tags',
  'anchors',
]);

export class WebsitesDto {
  @Nested(() => WebsiteDto, { each: true })
  iterable: WebsiteDto[];
}
PassThrough(WebsitesDto.prototype, ['schema', 'indices', 'score']);

/**
 * The whole Asset, as clients round-trip it through POST /asset/update. Trove applies
 * name, mechanism, favorited, the text of formats, annotations, tags and websites;
 * server-owned fields (creator, timestamps, previews) are accepted and ignored.
 */
export class AssetDto {
  @IsUUID()
  id: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;

  @IsOptional()
  @IsBoolean()
  favorited?: boolean;

  @IsOptional()
  @IsBoolean()
  pseudo?: boolean;

  @Nested(() => FormatsDto, { optional: true })
  formats?: FormatsDto;

  @Nested(() => AnnotationsDto, { optional: true })
  annotations?: AnnotationsDto;

  @Nested(() => TagsDto, { optional: true })
  tags?: TagsDto;

  @Nested(() => WebsitesDto, { optional: true })
  websites?: WebsitesDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  created?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  updated?: GroupedTimestampDto;

  @Nested(() => ScoreDto, { optional: true })
  score?: ScoreDto;
}
PassThrough(AssetDto.prototype, [
  'schema',
  'creator',
  'synced',
  'deleted',
  'preview',
  'original',
  'shares',
  'interacted',
  'sensitives',
  'persons',
  'curated',
  'discovered',
  'activities',
  'hints',
  'anchors',
  'conversations',
  'summaries',
  'messages',
  'demo',
]);

export class AssetsDto {
  @IsArray()
  @Nested(() => AssetDto, { each: true })
  iterable: AssetDto[];
}
PassThrough(AssetsDto.prototype, ['schema', 'indices', 'score']);
