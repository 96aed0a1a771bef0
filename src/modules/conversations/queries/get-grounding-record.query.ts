import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { NotFound } from '../../../common/errors/domain-errors';
import { derivedId } from '../../../common/wire/derived-id';
import { RecordsReader } from '../../assets/records.reader';
import { WebsiteRecordWire, websiteRecordWire } from '../../assets/wire/records.wire';
import { ConversationReader } from '../conversation.reader';
import {
  AnchorPointRecordWire,
  AnchorRecordWire,
  RangeWire,
  anchorPointRecordWire,
  anchorRecordWire,
  rangeWire,
} from '../wire/records.wire';

export type GroundingRecordKind = 'anchor' | 'anchor_point' | 'range' | 'website';
type GroundingRecordWire = AnchorRecordWire | AnchorPointRecordWire | RangeWire | WebsiteRecordWire;

/**
 * One record conversations are grounded in, read on its own with the live conversations linked
 * to it (GET /anchor/{anchor}, GET /range/{range}, GET /website/{website}, the last with its
 * assets too), or an anchor's point (GET /anchor_point/{anchor_point}: Trove keeps one path per
 * anchor, whose point id is derived from the anchor's). 404 when unknown.
 */
export class GetGroundingRecordQuery extends Query<GroundingRecordWire> {
  constructor(
    readonly kind: GroundingRecordKind,
    readonly id: string,
  ) {
    super();
  }
}

@QueryHandler(GetGroundingRecordQuery)
export class GetGroundingRecordHandler implements IQueryHandler<GetGroundingRecordQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly records: RecordsReader,
  ) {}

  execute({ kind, id }: GetGroundingRecordQuery): Promise<GroundingRecordWire> {
    return this.db.read(async (em) => {
      if (kind === 'anchor_point') {
        const anchorId = (await this.reader.anchorIds(em)).find((anchor) => derivedId('anchor-point', anchor) === id);
        if (!anchorId) throw new NotFound(`anchor point ${id} not found`);
        return anchorPointRecordWire(await this.reader.anchor(em, anchorId));
      }
      if (kind === 'website') {
        const website = await this.records.require(em, 'website', id);
        const assets = (await this.records.linkedAssets(em, 'website', [id])).get(id) ?? [];
        return websiteRecordWire(
          website,
          assets,
          (await this.reader.liveConversationsLinkedTo(em, 'website', [id])).get(id) ?? [],
        );
      }
      const conversations = async () => (await this.reader.liveConversationsLinkedTo(em, kind, [id])).get(id) ?? [];
      if (kind === 'anchor') return anchorRecordWire(await this.reader.anchor(em, id), await conversations());
      return rangeWire(await this.reader.range(em, id), await conversations());
    });
  }
}
