import { IsArray, IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { Nested, PassThrough } from '../../../common/wire/dto/decorators';
import { AssetsDto } from '../../assets/dto/asset.dto';

export class InteractedAssetInteractionsDto {
  /** How long the asset was viewed: an ISO-8601 duration such as PT30S. */
  @IsString()
  @MaxLength(64)
  viewed: string;

  @IsOptional()
  @IsBoolean()
  touched?: boolean;

  @IsOptional()
  @IsBoolean()
  scrolled?: boolean;
}

export class InteractedAssetDto {
  @IsOptional()
  @IsUUID()
  asset?: string;

  @Nested(() => InteractedAssetInteractionsDto, { optional: true })
  interactions?: InteractedAssetInteractionsDto;
}

export class InteractedAssetsDto {
  @IsArray()
  @Nested(() => InteractedAssetDto, { each: true })
  iterable: InteractedAssetDto[];
}
PassThrough(InteractedAssetsDto.prototype, ['schema']);

/** Assets the user interacted with, paired by index with how they interacted. */
export class SeededAssetsRecommendationDto {
  @Nested(() => AssetsDto, { optional: true })
  assets?: AssetsDto;

  @Nested(() => InteractedAssetsDto, { optional: true })
  interactions?: InteractedAssetsDto;
}
PassThrough(SeededAssetsRecommendationDto.prototype, ['schema']);
