import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SeededScoreIncrementDto } from '../../../common/wire/dto/seeded-score-increment.dto';
import { scoreIncrement } from '../../../common/wire/score-increment';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';

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
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ conversationId, increment }: IncrementConversationScoresCommand): Promise<void> {
    const { counters } = scoreIncrement(increment, 'conversation');
    await this.uow.run(async ({ em, changed }) => {
      await this.reader.require(em, conversationId);
      await this.writer.incrementScores(em, conversationId, counters);
      changed({ id: conversationId, change: 'updated' });
    });
  }
}
