import { IsUUID } from 'class-validator';
import { Nested, PassThrough } from '../../../common/wire/dto/decorators';
import { ConversationMessageFragmentDto } from './seeded-conversation.dto';

/** A round-tripped ConversationMessage whose text (`fragment.string.raw`) changed. */
export class ConversationMessageValueDto {
  @IsUUID('all', { message: 'id must be the UUID of a message' })
  id: string;

  @Nested(() => ConversationMessageFragmentDto)
  fragment: ConversationMessageFragmentDto;
}
PassThrough(ConversationMessageValueDto.prototype, [
  'schema',
  'created',
  'updated',
  'deleted',
  'conversation',
  'role',
  'sentiment',
  'model',
  'agent',
  'anchors',
  'annotations',
  'assets',
  'messages',
  'persons',
  'ranges',
  'score',
  'sources',
  'summaries',
  'summaryRoot',
  'tags',
  'websites',
  'workstream_events',
]);
