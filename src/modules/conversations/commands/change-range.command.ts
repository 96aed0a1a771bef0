import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { InvalidInput } from '../../../common/errors/domain-errors';
import { nowIso } from '../../../common/wire/common.wire';
import { GroupedTimestampDto } from '../../../common/wire/dto/common.dto';
import { ConversationReader } from '../conversation.reader';
import { ConversationWriter } from '../conversation.writer';
import { ConversationUnitOfWork } from '../conversation-unit-of-work';
import { RangeUpdateDto, SeededRangeDto } from '../dto/records.dto';
import { RangeEntity } from '../range.entity';
import { RangeWire, rangeWire } from '../wire/records.wire';

export type RangeChange =
  | { kind: 'create'; seed: SeededRangeDto | undefined }
  | { kind: 'update'; range: RangeUpdateDto | undefined }
  | { kind: 'delete'; id: string };

/** An ISO timestamp from a GroupedTimestamp (validated ISO-8601), in Trove's stored form. */
const isoOf = (t: GroupedTimestampDto | undefined): string | null =>
  t?.value ? new Date(t.value).toISOString() : null;

/**
 * A range (a span of time a conversation can be grounded in: the Python SDK makes one of the
 * last 15 minutes for each chat) created (POST /ranges/create, grounding `conversation` when the
 * seed names one: 404 unknown, 410 deleted), changed (POST /range/update) or deleted (POST
 * /ranges/{range}/delete: its groundings go first). A range whose `from` is after its `to` is a
 * 400. The range is announced on /ranges/stream/identifiers, the conversations grounded in it on
 * the conversations stream.
 */
export class ChangeRangeCommand extends Command<RangeWire | void> {
  constructor(readonly change: RangeChange) {
    super();
  }
}

@CommandHandler(ChangeRangeCommand)
export class ChangeRangeHandler implements ICommandHandler<ChangeRangeCommand> {
  constructor(
    private readonly reader: ConversationReader,
    private readonly writer: ConversationWriter,
    private readonly uow: ConversationUnitOfWork,
  ) {}

  async execute({ change }: ChangeRangeCommand): Promise<RangeWire | void> {
    const input = change.kind === 'create' ? change.seed : change.kind === 'update' ? change.range : null;
    if (change.kind !== 'delete' && !input)
      throw new InvalidInput(`a ${change.kind === 'create' ? 'SeededRange' : 'Range'} body is required`);
    const fromAt = isoOf(input?.from);
    const toAt = isoOf(input?.to);
    if (fromAt && toAt && fromAt > toAt)
      throw new InvalidInput('a range must not end before it starts (from after to)');
    return this.uow.run(async ({ em, changed }) => {
      if (change.kind === 'create') {
        const conversation = change.seed!.conversation?.reference.id;
        if (conversation) await this.reader.require(em, conversation);
        const now = nowIso();
        const row: RangeEntity = {
          id: randomUUID(),
          fromAt,
          toAt,
          continuous: change.seed!.between ?? false,
          createdAt: now,
          updatedAt: now,
        };
        await this.writer.insertRange(em, row);
        changed({ id: row.id, change: 'created', record: 'range' });
        if (conversation) {
          await this.writer.changeLink(em, 'range', conversation, row.id, true);
          changed({ id: conversation, change: 'updated' });
        }
        return rangeWire(row, conversation ? [conversation] : []);
      }
      const id = change.kind === 'update' ? change.range!.id : change.id;
      const current = await this.reader.range(em, id);
      const conversations = (await this.reader.liveConversationsLinkedTo(em, 'range', [id])).get(id) ?? [];
      if (change.kind === 'delete') {
        await this.writer.removeLinksTo(em, 'range', id);
        await this.writer.deleteRange(em, id);
      } else {
        const next = { fromAt: input!.from ? fromAt : current.fromAt, toAt: input!.to ? toAt : current.toAt };
        if (next.fromAt && next.toAt && next.fromAt > next.toAt)
          throw new InvalidInput('a range must not end before it starts (from after to)');
        await this.writer.updateRange(em, id, {
          ...next,
          ...(change.range!.between !== undefined ? { continuous: change.range!.between } : {}),
        });
      }
      await this.writer.touchConversations(em, conversations);
      for (const conversation of conversations) changed({ id: conversation, change: 'updated' });
      changed({ id, change: change.kind === 'delete' ? 'deleted' : 'updated', record: 'range' });
      if (change.kind === 'update') return rangeWire(await this.reader.range(em, id), conversations);
    });
  }
}
