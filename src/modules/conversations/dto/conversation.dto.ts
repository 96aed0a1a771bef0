import { IsBoolean, IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { GroupedTimestampDto, ScoreDto, ANNOTATION_RELATIONS } from '../../../common/wire/dto/common.dto';
import { Nested, OneOf, PassThrough } from '../../../common/wire/dto/decorators';
import { AnnotationTypeEnum, ConversationTypeEnum, MechanismEnum } from '../../../common/wire/enums';
import { ConversationReferenceDto } from './seeded-conversation.dto';

export class ConversationFlattenedAnnotationDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;

  @OneOf(AnnotationTypeEnum, { optional: true })
  type?: AnnotationTypeEnum;

  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  text?: string;

  @OneOf(MechanismEnum, { optional: true })
  mechanism?: MechanismEnum;
}
PassThrough(ConversationFlattenedAnnotationDto.prototype, [
  ...ANNOTATION_RELATIONS,
  'created',
  'updated',
  'deleted',
  'score',
  'summary',
]);

export class ConversationReferencedAnnotationDto {
  @IsUUID()
  id: string;

  @Nested(() => ConversationFlattenedAnnotationDto, { optional: true })
  reference?: ConversationFlattenedAnnotationDto;
}
PassThrough(ConversationReferencedAnnotationDto.prototype, ['schema']);

export class ConversationAnnotationsDto {
  @Nested(() => ConversationReferencedAnnotationDto, { each: true })
  iterable: ConversationReferencedAnnotationDto[];
}
PassThrough(ConversationAnnotationsDto.prototype, ['schema', 'indices', 'score']);

export class ConversationMessagesRefDto {
  @Nested(() => ConversationReferenceDto, { each: true })
  iterable: ConversationReferenceDto[];

  /** Message id -> order; -1 marks a message deleted (a later non-negative index restores it). */
  @IsOptional()
  @IsObject()
  indices?: Record<string, number>;
}
PassThrough(ConversationMessagesRefDto.prototype, ['schema', 'score']);

/**
 * The whole Conversation, as clients round-trip it through POST /conversation/update.
 * Trove applies name, type, favorited, annotations (the listed ones are kept and edited,
 * the others removed) and messages.indices (order, -1 = deleted). Links (assets,
 * websites, anchors, summaries, grounding) have their own endpoints: accepted here, not
 * interpreted; server-owned fields (timestamps, score) are accepted and ignored.
 */
export class ConversationDto {
  @IsUUID()
  id: string;

  /** null clears the name. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string | null;

  @OneOf(ConversationTypeEnum, { optional: true })
  type?: ConversationTypeEnum;

  @IsOptional()
  @IsBoolean()
  favorited?: boolean;

  @Nested(() => ConversationAnnotationsDto, { optional: true })
  annotations?: ConversationAnnotationsDto;

  @Nested(() => ConversationMessagesRefDto, { optional: true })
  messages?: ConversationMessagesRefDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  created?: GroupedTimestampDto;

  @Nested(() => GroupedTimestampDto, { optional: true })
  updated?: GroupedTimestampDto;

  @Nested(() => ScoreDto, { optional: true })
  score?: ScoreDto;
}
PassThrough(ConversationDto.prototype, [
  'schema',
  'deleted',
  'application',
  'model',
  'assets',
  'websites',
  'anchors',
  'grounding',
  'pipeline',
  'demo',
  'summaries',
]);

/** Used by the handler to check `indices` values (class-validator cannot type a map's values). */
export function isOrder(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -1;
}
