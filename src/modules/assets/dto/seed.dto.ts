import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { TransferableStringDto, ANNOTATION_RELATIONS } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import {
  AnnotationTypeEnum,
  ClassificationGenericEnum,
  ClassificationSpecificEnum,
  MechanismEnum,
  SeedTypeEnum,
  TagCategoryEnum,
} from '../../../common/wire/enums';
import { ApplicationDto } from '../../system/dto/application.dto';

export class SeededFragmentDto {
  @Nested(() => TransferableStringDto, { optional: true })
  string?: TransferableStringDto;
}
PassThrough(SeededFragmentDto.prototype, ['schema', 'bytes', 'metadata']);

export class SeededFileDto {
  @Nested(() => TransferableStringDto, { optional: true })
  string?: TransferableStringDto;
}
PassThrough(SeededFileDto.prototype, ['schema', 'bytes', 'metadata']);

export class SeededClassificationDto {
  @OneOf(ClassificationGenericEnum, { optional: true })
  generic?: ClassificationGenericEnum;

  @OneOf(ClassificationSpecificEnum, { optional: true })
  specific?: ClassificationSpecificEnum;
}
PassThrough(SeededClassificationDto.prototype, ['schema', 'rendering']);

export class SeededFormatDto {
  @Nested(() => SeededFragmentDto, { optional: true })
  fragment?: SeededFragmentDto;

  @Nested(() => SeededFileDto, { optional: true })
  file?: SeededFileDto;

  @Nested(() => SeededClassificationDto, { optional: true })
  classification?: SeededClassificationDto;
}
PassThrough(SeededFormatDto.prototype, ['schema']);

export class SeededAssetTagDto {
  @IsString()
  @MaxLength(256)
  text: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;

  @OneOf(TagCategoryEnum, { optional: true })
  category?: TagCategoryEnum;
}
PassThrough(SeededAssetTagDto.prototype, ['schema']);

export class SeededAssetWebsiteDto {
  @IsString()
  @MaxLength(2048)
  url: string;

  @IsString()
  @MaxLength(512)
  name: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(SeededAssetWebsiteDto.prototype, ['schema']);

export class SeededAnnotationDto {
  @OneOf(AnnotationTypeEnum)
  type: AnnotationTypeEnum;

  @IsString()
  @MaxLength(100_000)
  text: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(SeededAnnotationDto.prototype, [...ANNOTATION_RELATIONS, 'workstream_summary']);

export class SeededAssetMetadataDto {
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;

  @Nested(() => SeededAssetTagDto, { optional: true, each: true })
  tags?: SeededAssetTagDto[];

  @Nested(() => SeededAssetWebsiteDto, { optional: true, each: true })
  websites?: SeededAssetWebsiteDto[];

  @Nested(() => SeededAnnotationDto, { optional: true, each: true })
  annotations?: SeededAnnotationDto[];
}
PassThrough(SeededAssetMetadataDto.prototype, ['schema', 'sensitives', 'persons', 'hints', 'anchors']);

export class SeededAssetDto {
  @Nested(() => ApplicationDto, { optional: true })
  application?: ApplicationDto;

  @Nested(() => SeededFormatDto)
  format: SeededFormatDto;

  @Nested(() => SeededAssetMetadataDto, { optional: true })
  metadata?: SeededAssetMetadataDto;

  @IsOptional()
  @IsBoolean()
  pseudo?: boolean;

  @IsOptional()
  @IsBoolean()
  discovered?: boolean;

  @IsOptional()
  @IsBoolean()
  demo?: boolean;
}
PassThrough(SeededAssetDto.prototype, ['schema', 'available', 'enrichment']);

/** The structure that precedes an asset. */
export class SeedDto {
  @Nested(() => SeededAssetDto, { optional: true })
  asset?: SeededAssetDto;

  /** Defaults to SEEDED_ASSET. */
  @OneOf(SeedTypeEnum, { optional: true })
  type?: SeedTypeEnum;
}
PassThrough(SeedDto.prototype, ['schema', 'person', 'anchor', 'website']);
