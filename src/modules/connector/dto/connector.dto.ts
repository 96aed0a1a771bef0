import { PickType } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsOptional, IsUUID } from 'class-validator';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { CapabilitiesEnum } from '../../../common/wire/enums';
import { ApplicationDto } from '../../system/dto/application.dto';
import { SeededAssetMetadataDto, SeededFormatDto } from '../../assets/dto/seed.dto';

/** The integration that connects: name (a pre-registered integration), version, platform. */
export class SeededTrackedApplicationDto extends PickType(ApplicationDto, [
  'name',
  'version',
  'platform',
  'privacy',
  'automaticUnload',
] as const) {
  @OneOf(CapabilitiesEnum, { optional: true })
  capabilities?: CapabilitiesEnum;
}
PassThrough(SeededTrackedApplicationDto.prototype, ['schema', 'enrichment']);

/** Input of POST /connect. */
export class SeededConnectorConnectionDto {
  @Nested(() => SeededTrackedApplicationDto)
  application: SeededTrackedApplicationDto;
}
PassThrough(SeededConnectorConnectionDto.prototype, ['schema']);

/** A snippet as an integration sends it (intention, suggestion, reaction). */
export class SeededConnectorAssetDto {
  @Nested(() => SeededFormatDto)
  format: SeededFormatDto;

  @Nested(() => SeededAssetMetadataDto, { optional: true })
  metadata?: SeededAssetMetadataDto;
}
PassThrough(SeededConnectorAssetDto.prototype, ['schema']);

/** A copied snippet to compare with every saved asset. */
export class SeededConnectorCreationDto {
  @Nested(() => SeededConnectorAssetDto, { optional: true })
  asset?: SeededConnectorAssetDto;
}
PassThrough(SeededConnectorCreationDto.prototype, ['schema']);

/** The asset the user chose to reuse. */
export class ReuseReactionDto {
  @IsUUID('all', { message: 'asset must be a UUID' })
  asset: string;
}
PassThrough(ReuseReactionDto.prototype, ['schema']);

/** The answer to a Suggestion: save the seed as an asset, or reuse an asset, or neither. */
export class ReactionDto {
  @IsBoolean()
  save: boolean;

  @Nested(() => ReuseReactionDto, { optional: true })
  reuse?: ReuseReactionDto;

  @Nested(() => SeededConnectorCreationDto)
  seed: SeededConnectorCreationDto;
}
PassThrough(ReactionDto.prototype, ['schema']);

/** The tracking events of SeededConnectorTracking: each an object, stored as sent. */
export const TRACKING_KINDS = [
  'format',
  'asset',
  'interaction',
  'keyboard',
  'session',
  'assets',
  'ml',
  'adoption',
  'conversation',
  'conversation_message',
  'workstream_summary',
] as const;

/** Input of POST /{application}/track: any of the event kinds, each recorded as sent. */
export class SeededConnectorTrackingDto {
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
PassThrough(SeededConnectorTrackingDto.prototype, ['schema']);
