import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { KeyedRow, Keyset, KeysetSource, keyOf, keysetSlice } from '../../common/database/keyset';
import { Gone, NotFound } from '../../common/errors/domain-errors';
import { toJson } from '../../common/http/json-writers';
import { StreamEvent, StreamTopicName } from '../../common/events/outbox';
import { AssetReader } from '../assets/asset.reader';
import { assetWire } from '../assets/wire/asset.wire';
import { WorkstreamSummaryReader } from '../assets/workstream-summary.reader';
import { ConversationReader } from '../conversations/conversation.reader';
import { ModelRegistry } from '../models/model-registry';
import { ApplicationReader } from '../system/application.reader';

/** One page of a first frame's ids (or items) and where the next page starts (null: it was the last). */
export interface Paged<T> {
  items: T[];
  next: Keyset | null;
}

const paged = ({ rows, last }: { rows: KeyedRow[]; last: KeyedRow | null }): Paged<string> => ({
  items: rows.map((r) => r.id),
  next: last && keyOf(last),
});

/** Ids of one page of an identifiers first frame (~50 bytes each). */
const ID_PAGE = 5000;

/**
 * A kind of record the identifier streams announce. `page` lists every current id in the
 * order of the first frame, a page at a time; `key` names the record in a StreamedIdentifier
 * (`{"asset": {"id"}}`). The models list is what `GET /models` lists (providers that are down
 * are left out), small by design (MAX_CUSTOM_MODELS): one page.
 */
export interface StreamTopic {
  name: StreamTopicName;
  key:
    | 'asset'
    | 'conversation'
    | 'model'
    | 'workstream_summary'
    | 'application'
    | 'anchor'
    | 'range'
    | 'person'
    | 'sensitive';
  page(em: EntityManager, after: Keyset | null): Promise<Paged<string>>;
  /**
   * Of the given ids (of changes, not deletions), those the streams leave out because the
   * snapshot would not list them either (pseudo assets). Decided when the frame is made, from
   * the record's state then (like the content of a full Assets frame).
   */
  hidden?(em: EntityManager, ids: string[]): Promise<Set<string>>; // any number of ids
}

/** The registered topics; each reads its records through the module that owns them. */
@Injectable()
export class StreamTopics {
  private readonly topics = new Map<StreamTopicName, StreamTopic>();

  constructor(db: Database, assets: AssetReader, models: ModelRegistry, applications: ApplicationReader) {
    const walked = (source: KeysetSource) => async (em: EntityManager, after: Keyset | null) =>
      paged(await keysetSlice(db, em, source, after, ID_PAGE));
    this.register({
      name: 'assets',
      key: 'asset',
      page: walked(AssetReader.listing(false)),
      hidden: (em, ids) => assets.pseudoAmong(em, ids),
    });
    this.register({ name: 'conversations', key: 'conversation', page: walked(ConversationReader.LISTING) });
    this.register({
      name: 'models',
      key: 'model',
      page: async () => ({ items: (await models.list()).map((m) => m.id), next: null }),
    });
    this.register({
      name: 'workstream_summaries',
      key: 'workstream_summary',
      page: walked(WorkstreamSummaryReader.LISTING),
    });
    // What GET /applications lists (the connected ones, most recently connected first): a handful.
    this.register({
      name: 'applications',
      key: 'application',
      page: async (em) => ({ items: (await applications.connected(em)).map((a) => a.id), next: null }),
    });
    this.register({ name: 'anchors', key: 'anchor', page: walked(ConversationReader.ANCHORS) });
    this.register({ name: 'ranges', key: 'range', page: walked(ConversationReader.RANGES) });
    // Trove keeps no persons; sensitives change with their asset, announced on the assets streams: these streams list none, and nothing changes them.
    const none = async (): Promise<Paged<string>> => ({ items: [], next: null });
    this.register({ name: 'persons', key: 'person', page: none });
    this.register({ name: 'sensitives', key: 'sensitive', page: none });
  }

  register(topic: StreamTopic): void {
    this.topics.set(topic.name, topic);
  }

  get(name: StreamTopicName): StreamTopic {
    return this.topics.get(name)!;
  }

  /** Ids of the events' records left out of the streams (see StreamTopic.hidden), keyed `topic:id`. */
  async hidden(em: EntityManager, events: StreamEvent[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const topic of this.topics.values()) {
      if (!topic.hidden) continue;
      const ids = [...new Set(events.filter((e) => e.topic === topic.name && !e.deleted).map((e) => e.entityId))];
      for (const id of await topic.hidden(em, ids)) out.add(`${topic.name}:${id}`);
    }
    return out;
  }
}

/**
 * What one WebSocket path sends: the first frame (the current state), a page of its items at a
 * time, and one frame per outbox event of its topic. Frames are plain objects, serialised once
 * per event and shared by every socket of the view.
 */
export interface StreamView {
  path: string;
  topic: StreamTopicName;
  /** True when `change` reads the database (full records); false for identifiers. */
  reads: boolean;
  /** One page of the first frame's `iterable`: the items' JSON texts, after `after` (null: from the start). */
  page(em: EntityManager, after: Keyset | null): Promise<Paged<string>>;
  change(em: EntityManager | null, event: StreamEvent): Promise<object>;
}

/** `/x/stream/identifiers`: StreamedIdentifiers frames. */
export function identifiersView(path: string, topics: StreamTopics, name: StreamTopicName): StreamView {
  return {
    path,
    topic: name,
    reads: false,
    page: async (em, after) => {
      const topic = topics.get(name);
      const { items, next } = await topic.page(em, after);
      return { items: items.map((id) => `{${JSON.stringify(topic.key)}:{"id":${JSON.stringify(id)}}}`), next };
    },
    change: async (_em, event) => {
      const item: Record<string, unknown> = { [topics.get(name).key]: { id: event.entityId } };
      if (event.deleted) item.deleted = true;
      return { iterable: [item] };
    },
  };
}

/**
 * `/assets/stream` (no format content) and `/assets/stream/transferables` (with it): Assets
 * frames. A change frame carries the asset as it is when the frame is made; a deleted asset
 * has no Asset left to send, so its frame is `{"iterable": [], "indices": {"<id>": -1}}`
 * (-1 marks a deletion, as in Conversation.messages.indices).
 */
export function assetsView(path: string, reader: AssetReader, transferables: boolean): StreamView {
  const gone = (id: string) => ({ iterable: [], indices: { [id]: -1 } });
  return {
    path,
    topic: 'assets',
    reads: true,
    page: async (em, after) => {
      const { aggregates, last } = await reader.page(em, { pseudo: false, after, limit: AssetReader.PAGE });
      return { items: aggregates.map((a) => toJson(assetWire(a, transferables))), next: last && keyOf(last) };
    },
    change: async (em, event) => {
      if (event.deleted) return gone(event.entityId);
      try {
        return { iterable: [assetWire(await reader.one(em!, event.entityId), transferables)] };
      } catch (error) {
        if (error instanceof Gone || error instanceof NotFound) return gone(event.entityId);
        throw error;
      }
    },
  };
}
