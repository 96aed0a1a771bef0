import { StreamableFile } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { jsonCollection, mapPages } from '../../../common/http/json-stream';
import { RecordsReader } from '../../assets/records.reader';
import { annotationWire } from '../../assets/wire/asset.wire';
import { websiteRecordWire } from '../../assets/wire/records.wire';
import { ConversationReader } from '../conversation.reader';
import { conversationAnnotationWire, conversationMessageWire } from '../wire/conversation.wire';
import { anchorPointRecordWire, anchorRecordWire, rangeWire } from '../wire/records.wire';

export type GroundingCollection = 'anchors' | 'anchor_points' | 'ranges' | 'websites' | 'annotations' | 'messages';

/** Records per page of these listings. */
const PAGE = 200;

/**
 * GET /anchors, /anchor_points, /ranges, /websites, /annotations, /messages: every record of the
 * kind Trove holds, most recent first, streamed a page at a time, each with the records it is
 * linked to (an anchor, a range: its live conversations; a website: its live assets and
 * conversations). Annotations are those of live assets, then those of live conversations;
 * messages those of live conversations (deleted ones left out), with their text unless
 * `transferables=false`.
 */
export class ListGroundingRecordsQuery extends Query<StreamableFile> {
  constructor(
    readonly kind: GroundingCollection,
    readonly withContent = true,
  ) {
    super();
  }
}

@QueryHandler(ListGroundingRecordsQuery)
export class ListGroundingRecordsHandler implements IQueryHandler<ListGroundingRecordsQuery> {
  constructor(
    private readonly db: Database,
    private readonly reader: ConversationReader,
    private readonly records: RecordsReader,
  ) {}

  execute({ kind, withContent }: ListGroundingRecordsQuery): Promise<StreamableFile> {
    return jsonCollection(this.pages(kind, withContent), { item: (wire) => JSON.stringify(wire) });
  }

  private pages(kind: GroundingCollection, withContent: boolean): AsyncIterable<object[]> {
    const reader = this.reader;
    const linked = (kind: 'anchor' | 'range' | 'website', ids: string[]) =>
      this.db.read((em) => reader.liveConversationsLinkedTo(em, kind, ids));
    switch (kind) {
      case 'anchors':
        return mapPages(
          reader.walkRecords(ConversationReader.ANCHORS, PAGE, (em, ids) => reader.anchorsByIds(em, ids)),
          async (page) => {
            const conversations = await linked(
              'anchor',
              page.map((a) => a.id),
            );
            return page.map((a) => anchorRecordWire(a, conversations.get(a.id) ?? []));
          },
        );
      case 'anchor_points':
        return mapPages(
          reader.walkRecords(ConversationReader.ANCHORS, PAGE, (em, ids) => reader.anchorsByIds(em, ids)),
          async (page) => page.map(anchorPointRecordWire),
        );
      case 'ranges':
        return mapPages(
          reader.walkRecords(ConversationReader.RANGES, PAGE, (em, ids) => reader.rangesByIds(em, ids)),
          async (page) => {
            const conversations = await linked(
              'range',
              page.map((r) => r.id),
            );
            return page.map((r) => rangeWire(r, conversations.get(r.id) ?? []));
          },
        );
      case 'websites':
        return mapPages(this.records.walk('website'), async (page) => {
          const ids = page.map((w) => w.id);
          const assets = await this.db.read((em) => this.records.linkedAssets(em, 'website', ids));
          const conversations = await linked('website', ids);
          return page.map((w) => websiteRecordWire(w, assets.get(w.id) ?? [], conversations.get(w.id) ?? []));
        });
      case 'annotations':
        return this.annotations();
      case 'messages':
        return mapPages(
          reader.walkRecords(ConversationReader.MESSAGES, PAGE, (em, ids) => reader.messagesById(em, ids)),
          async (page) => page.map((m) => conversationMessageWire(m, withContent)),
        );
    }
  }

  private async *annotations(): AsyncGenerator<object[]> {
    for await (const page of this.records.walkAnnotations()) yield page.map(annotationWire);
    for await (const page of this.reader.walkRecords(ConversationReader.ANNOTATIONS, PAGE, (em, ids) =>
      this.reader.annotationsByIds(em, ids),
    )) {
      yield page.map(conversationAnnotationWire);
    }
  }
}
