import { IsBoolean, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import {
  ConversationMessageSentimentEnum,
  PlatformEnum,
  QGPTConversationMessageRoleEnum,
} from '../../../common/wire/enums';
import { AnchorTypeEnum, ConversationMessageFragmentDto, ConversationReferenceDto } from './seeded-conversation.dto';
import { MESSAGE_FIELDS_KEPT } from './message.dto';

/** POST /messages/create: a message appended to a conversation (`conversation.id`), as the copilot SDKs send each question and answer. */
export class SeededMessageDto {
  @OneOf(QGPTConversationMessageRoleEnum)
  role: QGPTConversationMessageRoleEnum;

  @Nested(() => ConversationMessageFragmentDto)
  fragment: ConversationMessageFragmentDto;

  @Nested(() => ConversationReferenceDto, { optional: true })
  conversation?: ConversationReferenceDto;

  @OneOf(ConversationMessageSentimentEnum, { optional: true })
  sentiment?: ConversationMessageSentimentEnum;

  @Nested(() => GroupedTimestampDto, { optional: true })
  created?: GroupedTimestampDto;
}
PassThrough(SeededMessageDto.prototype, [
  'schema',
  'model',
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

/** A round-tripped ConversationMessage (POST /message/update): its text (`fragment`, when given) and sentiment change. */
export class MessageUpdateDto {
  @IsUUID('all', { message: 'id must be the UUID of a message' })
  id: string;

  @Nested(() => ConversationMessageFragmentDto, { optional: true })
  fragment?: ConversationMessageFragmentDto;

  @OneOf(ConversationMessageSentimentEnum, { optional: true })
  sentiment?: ConversationMessageSentimentEnum;
}
PassThrough(MessageUpdateDto.prototype, MESSAGE_FIELDS_KEPT);

/** One point of a round-tripped Anchor: its path. */
export class AnchorPointReferenceDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  fullpath?: string;

  @OneOf(PlatformEnum, { optional: true })
  platform?: PlatformEnum;
}
PassThrough(AnchorPointReferenceDto.prototype, [
  'schema',
  'id',
  'verified',
  'created',
  'updated',
  'deleted',
  'anchor',
  'score',
]);

export class AnchorPointItemDto {
  @Nested(() => AnchorPointReferenceDto, { optional: true })
  reference?: AnchorPointReferenceDto;
}
PassThrough(AnchorPointItemDto.prototype, ['schema', 'id']);

export class AnchorPointsDto {
  @Nested(() => AnchorPointItemDto, { each: true })
  iterable: AnchorPointItemDto[];
}
PassThrough(AnchorPointsDto.prototype, ['schema', 'indices', 'score']);

/** A round-tripped Anchor (POST /anchor/update): its name, type, watch flag and the path of its one point change. */
export class AnchorUpdateDto {
  @IsUUID('all', { message: 'id must be the UUID of an anchor' })
  id: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string;

  @OneOf(AnchorTypeEnum, { optional: true })
  type?: AnchorTypeEnum;

  @IsOptional()
  @IsBoolean()
  watch?: boolean;

  @Nested(() => AnchorPointsDto, { optional: true })
  points?: AnchorPointsDto;
}
PassThrough(AnchorUpdateDto.prototype, [
  'schema',
  'created',
  'updated',
  'deleted',
  'assets',
  'annotations',
  'conversations',
  'score',
  'summaries',
  'persons',
  'messages',
  'workstream_events',
  'sources',
  'tags',
]);

/** SeededRange.conversation: the conversation to ground in the new range. */
export class SeededRangeConversationDto {
  @Nested(() => ConversationReferenceDto)
  reference: ConversationReferenceDto;
}
PassThrough(SeededRangeConversationDto.prototype, ['schema', 'grounding']);

/** POST /ranges/create: a span of time (either end may be open), grounding `conversation` when given. */
export class SeededRangeDto {
  @Nested(() => GroupedTimestampDto, { optional: true })
  from?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  to?: GroupedTimestampDto;

  @IsOptional()
  @IsBoolean()
  between?: boolean;

  @Nested(() => SeededRangeConversationDto, { optional: true })
  conversation?: SeededRangeConversationDto;
}
PassThrough(SeededRangeDto.prototype, ['schema', 'summary']);

/** A round-tripped Range (POST /range/update): its ends and `between` change. */
export class RangeUpdateDto {
  @IsUUID('all', { message: 'id must be the UUID of a range' })
  id: string;

  @Nested(() => GroupedTimestampDto, { optional: true })
  from?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  to?: GroupedTimestampDto;

  @IsOptional()
  @IsBoolean()
  between?: boolean;
}
PassThrough(RangeUpdateDto.prototype, [
  'schema',
  'score',
  'created',
  'updated',
  'summaries',
  'conversations',
  'messages',
]);
