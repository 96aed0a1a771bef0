import { IsBoolean, IsOptional } from 'class-validator';
import { Nested, PassThrough } from '../../../common/wire/dto/decorators';

/** Which counters to increment by one. */
export class ConversationSeededScoreDto {
  @IsOptional() @IsBoolean() reuse?: boolean;
  @IsOptional() @IsBoolean() update?: boolean;
  @IsOptional() @IsBoolean() reference?: boolean;
  @IsOptional() @IsBoolean() priority?: boolean;
  @IsOptional() @IsBoolean() searched?: boolean;
}
PassThrough(ConversationSeededScoreDto.prototype, ['schema']);

/**
 * SeededScoreIncrement. On /conversation/{conversation}/scores/increment only
 * `conversation` (and its plural `conversations`) apply; the other kinds are accepted and
 * not interpreted.
 */
export class ConversationScoreIncrementDto {
  @Nested(() => ConversationSeededScoreDto, { optional: true })
  conversation?: ConversationSeededScoreDto;

  @Nested(() => ConversationSeededScoreDto, { optional: true })
  conversations?: ConversationSeededScoreDto;
}
PassThrough(ConversationScoreIncrementDto.prototype, [
  'schema', 'asset', 'assets', 'website', 'websites', 'anchor', 'anchors', 'anchorPoint', 'anchorPoints', 'annotation',
  'annotations', 'conversationMessage', 'conversationMessages', 'share', 'shares', 'sensitive', 'sensitives', 'hint',
  'hints', 'person', 'persons', 'tag', 'tags', 'workstream_summary', 'workstream_summaries', 'workstream_events',
  'workstream_event', 'ranges', 'range', 'workstream_pattern_engine_sources', 'workstream_pattern_engine_source',
  'models', 'model', 'workstream_pattern_engine_source_windows', 'workstream_pattern_engine_source_window',
]);
