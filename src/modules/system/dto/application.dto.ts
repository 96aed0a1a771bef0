import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ApplicationNameEnum, PlatformEnum, PrivacyEnum } from '../../../common/wire/enums';

/** A full Application as clients send it (usually Context.application from /connect). */
export class ApplicationDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @OneOf(ApplicationNameEnum)
  name: ApplicationNameEnum;

  @IsString()
  @MaxLength(128)
  version: string;

  @OneOf(PlatformEnum)
  platform: PlatformEnum;

  @IsOptional()
  @IsBoolean()
  onboarded?: boolean;

  @OneOf(PrivacyEnum, { optional: true })
  privacy?: PrivacyEnum;

  @IsOptional()
  @IsBoolean()
  automaticUnload?: boolean;
}
PassThrough(ApplicationDto.prototype, ['schema', 'capabilities', 'mechanism', 'enrichment', 'descriptor']);
