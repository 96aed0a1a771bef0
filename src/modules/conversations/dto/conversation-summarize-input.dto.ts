import { Nested, PassThrough } from '../../../common/wire/dto/decorators';
import { ConversationReferencesDto } from './seeded-conversation.dto';

/** Summarize only these messages (of the conversation); all of them when omitted. */
export class ConversationSummarizeInputDto {
  @Nested(() => ConversationReferencesDto, { optional: true })
  messages?: ConversationReferencesDto;
}
PassThrough(ConversationSummarizeInputDto.prototype, ['schema']);
