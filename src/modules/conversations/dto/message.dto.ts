import { IsUUID } from 'class-validator';
import { TransferableStringDto } from '../../../common/wire/dto/common.dto';
import { Nested, PassThrough } from '../../../common/wire/dto/decorators';

export class MessageFragmentDto {
  @Nested(() => TransferableStringDto)
  string: TransferableStringDto;
}
PassThrough(MessageFragmentDto.prototype, ['schema', 'bytes', 'metadata']);

/** A round-tripped ConversationMessage whose text (`fragment.string.raw`) changed. */
export class ConversationMessageValueDto {
  @IsUUID('all', { message: 'id must be the UUID of a message' })
  id: string;

  @Nested(() => MessageFragmentDto)
  fragment: MessageFragmentDto;
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
