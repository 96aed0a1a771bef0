import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ClassificationSpecificEnum } from '../../../common/wire/enums';

export const FilterOperationTypeEnum = ['UNKNOWN', 'AND', 'OR'] as const;
export type FilterOperationTypeEnum = (typeof FilterOperationTypeEnum)[number];

/** A uuid in a search space (FlattenedAssets.iterable[]). */
export class SpaceIdentifierDto {
  @IsUUID()
  id: string;
}
PassThrough(SpaceIdentifierDto.prototype, ['schema', 'reference']);

export class SpaceIdentifiersDto {
  @IsArray()
  @ArrayMaxSize(10_000)
  @Nested(() => SpaceIdentifierDto, { each: true })
  iterable: SpaceIdentifierDto[];
}
PassThrough(SpaceIdentifiersDto.prototype, ['schema', 'indices', 'score']);

/** The search space: only these assets are candidates. (`identifers` is the SDK's spelling.) */
export class AssetSearchSpaceDto {
  @Nested(() => SpaceIdentifiersDto)
  identifers: SpaceIdentifiersDto;
}
PassThrough(AssetSearchSpaceDto.prototype, ['schema']);

/** A piece of text the asset must contain (case-insensitive unless `casing`), in the flagged fields or all. */
export class AssetFilterPhraseDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  value?: string;

  @IsOptional()
  @IsBoolean()
  annotation?: boolean;

  @IsOptional()
  @IsBoolean()
  title?: boolean;

  @IsOptional()
  @IsBoolean()
  content?: boolean;
}
PassThrough(AssetFilterPhraseDto.prototype, ['schema', 'options']);

/** A time range: `from` and/or `to`, both inclusive. */
export class AssetFilterTimestampDto {
  @Nested(() => GroupedTimestampDto, { optional: true })
  from?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  to?: GroupedTimestampDto;

  @IsOptional()
  @IsBoolean()
  between?: boolean;
}
PassThrough(AssetFilterTimestampDto.prototype, ['schema']);

// AssetFiltersDto comes first: AssetFilterDto.operations refers to it in decorator metadata.
/** Filters combined with AND (or OR when `type` is OR). */
export class AssetFiltersDto {
  @IsArray()
  @ArrayMaxSize(100)
  @Nested(() => AssetFilterDto, { each: true })
  iterable: AssetFilterDto[];

  @OneOf(FilterOperationTypeEnum, { optional: true })
  type?: FilterOperationTypeEnum;
}
PassThrough(AssetFiltersDto.prototype, ['schema']);

/** One filter; every field it sets must hold (AND). */
export class AssetFilterDto {
  @OneOf(ClassificationSpecificEnum, { optional: true })
  classification?: ClassificationSpecificEnum;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  tags?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  websites?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  persons?: string[];

  @Nested(() => AssetFilterPhraseDto, { optional: true })
  phrase?: AssetFilterPhraseDto;

  @Nested(() => AssetFilterTimestampDto, { optional: true })
  created?: AssetFilterTimestampDto;

  @Nested(() => AssetFilterTimestampDto, { optional: true })
  updated?: AssetFilterTimestampDto;

  /** Nested filters, combined by their own `type`. */
  @Nested(() => AssetFiltersDto, { optional: true })
  operations?: AssetFiltersDto;
}
PassThrough(AssetFilterDto.prototype, ['schema']);

export class AssetsSearchWithFiltersInputDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  query?: string;

  @Nested(() => AssetSearchSpaceDto, { optional: true })
  space?: AssetSearchSpaceDto;

  @Nested(() => AssetFiltersDto, { optional: true })
  filters?: AssetFiltersDto;

  /** Phrase filters match case-sensitively when true. */
  @IsOptional()
  @IsBoolean()
  casing?: boolean;
}
PassThrough(AssetsSearchWithFiltersInputDto.prototype, ['schema']);
