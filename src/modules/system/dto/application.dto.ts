import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { ApplicationNameEnum, CapabilitiesEnum, PlatformEnum, PrivacyEnum } from '../../../common/wire/enums';

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

/** The body of POST /application/update: a whole Application as the SDK sends it back, its id required. */
export class ApplicationUpdateDto extends ApplicationDto {
  @IsString()
  @MaxLength(64)
  declare id: string;

  @OneOf(CapabilitiesEnum, { optional: true })
  capabilities?: CapabilitiesEnum;
}
