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
/**
 * The fields of a round-tripped ConversationMessage a change of its text or sentiment leaves as
 * they are: accepted, not interpreted (MessageUpdateDto too).
 */
export const MESSAGE_FIELDS_KEPT = [
  'schema',
  'created',
  'updated',
  'deleted',
  'conversation',
  'role',
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
];
PassThrough(ConversationMessageValueDto.prototype, [...MESSAGE_FIELDS_KEPT, 'sentiment']);
