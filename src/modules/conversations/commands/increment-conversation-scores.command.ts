import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, EventBus, ICommandHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { Outbox } from '../../../common/events/outbox';
import { ConversationReader } from '../conversation.reader';
import { ConversationEntity } from '../conversation.entity';
import { SeededScoreIncrementDto } from '../../../common/wire/dto/seeded-score-increment.dto';
import { ConversationChangedEvent } from '../events/conversation-changed.event';

const KINDS = ['reuse', 'update', 'reference', 'priority', 'searched'] as const;
type Kind = (typeof KINDS)[number];

/** Entity property and column of each counter. */
const COUNTER: Record<Kind, [keyof ConversationEntity, string]> = {
  reuse: ['scoreReuse', 'score_reuse'],
  update: ['scoreUpdate', 'score_update'],
  reference: ['scoreReference', 'score_reference'],
  priority: ['scorePriority', 'score_priority'],
  searched: ['scoreSearched', 'score_searched'],
};

/**
 * Adds one to each counter flagged true in `conversation` (or `conversations`). As for
 * assets: the user's own interactions (reuse, update, reference, priority) also count
 * towards `manual`, being found by a search towards `automatic`.
 */
export class IncrementConversationScoresCommand extends Command<void> {
  constructor(
    readonly conversationId: string,
    readonly increment: SeededScoreIncrementDto | undefined,
  ) {
    super();
  }
}

@CommandHandler(IncrementConversationScoresCommand)
export class IncrementConversationScoresHandler implements ICommandHandler<IncrementConversationScoresCommand> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  async execute({ conversationId, increment }: IncrementConversationScoresCommand): Promise<void> {
    if (!increment?.conversation && !increment?.conversations) {
      throw new BadRequestException('a SeededScoreIncrement with `conversation` (e.g. {"conversation": {"reuse": true}}) is required');
    }
    const kinds = KINDS.filter((k) => increment.conversation?.[k] === true || increment.conversations?.[k] === true);
    if (!kinds.length) {
      throw new BadRequestException(`SeededScoreIncrement.conversation must set at least one of ${KINDS.join(', ')} to true`);
    }
    const manual = kinds.filter((k) => k !== 'searched').length;
    const automatic = kinds.includes('searched') ? 1 : 0;
    await this.db.transaction(async (em) => {
      await this.reader.require(em, conversationId);
      // One relative UPDATE: concurrent increments add up instead of overwriting each other.
      const set: Partial<Record<keyof ConversationEntity, () => string>> = {};
      for (const kind of kinds) {
        const [property, column] = COUNTER[kind];
        set[property] = () => `"${column}" + 1`;
      }
      if (manual) set.scoreManual = () => `"score_manual" + ${manual}`;
      if (automatic) set.scoreAutomatic = () => `"score_automatic" + ${automatic}`;
      await em.createQueryBuilder().update(ConversationEntity).set(set).where('id = :id', { id: conversationId }).execute();
      await this.outbox.append(em, 'conversations', conversationId);
    });
    this.events.publish(new ConversationChangedEvent(conversationId, 'updated'));
  }
}
