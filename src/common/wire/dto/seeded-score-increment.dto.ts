import { IsBoolean, IsOptional } from 'class-validator';
import { Nested, PassThrough } from './decorators';

/** Which counters to increment by one. */
export class SeededScoreDto {
  @IsOptional() @IsBoolean() reuse?: boolean;
  @IsOptional() @IsBoolean() update?: boolean;
  @IsOptional() @IsBoolean() reference?: boolean;
  @IsOptional() @IsBoolean() priority?: boolean;
  @IsOptional() @IsBoolean() searched?: boolean;
}
PassThrough(SeededScoreDto.prototype, ['schema']);

/**
 * SeededScoreIncrement: one SeededScore per kind of record. Each scores route applies its own
 * kind (`asset`/`assets` on /asset/{asset}/scores/increment, `conversation`/`conversations`
 * on /conversation/{conversation}/scores/increment); the other kinds are accepted and not
 * interpreted.
 */
export class SeededScoreIncrementDto {
  @Nested(() => SeededScoreDto, { optional: true })
  asset?: SeededScoreDto;

  @Nested(() => SeededScoreDto, { optional: true })
  assets?: SeededScoreDto;

  @Nested(() => SeededScoreDto, { optional: true })
  conversation?: SeededScoreDto;

  @Nested(() => SeededScoreDto, { optional: true })
  conversations?: SeededScoreDto;
}
PassThrough(SeededScoreIncrementDto.prototype, [
  'schema',
  'website',
  'websites',
  'anchor',
  'anchors',
  'anchorPoint',
  'anchorPoints',
  'annotation',
  'annotations',
  'conversationMessage',
  'conversationMessages',
  'share',
  'shares',
  'sensitive',
  'sensitives',
  'hint',
  'hints',
  'person',
  'persons',
  'tag',
  'tags',
  'workstream_summary',
  'workstream_summaries',
  'workstream_events',
  'workstream_event',
  'ranges',
  'range',
  'workstream_pattern_engine_sources',
  'workstream_pattern_engine_source',
  'models',
  'model',
  'workstream_pattern_engine_source_windows',
  'workstream_pattern_engine_source_window',
  // Fields of the Python SDK (the CLI's, 5.0.0) that the TS SDK does not have yet.
  'entity',
  'entities',
  'subscription',
  'subscriptions',
  'users',
  'entity_to_subscription_association',
  'entity_to_subscription_associations',
  'entity_to_user_association',
  'entity_to_user_associations',
  'workstream_summary_to_workstream_summary_association',
  'workstream_summary_to_workstream_summaries_associations',
]);
