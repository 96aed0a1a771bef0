import { Injectable } from '@nestjs/common';
import { Brackets, EntityManager, In, IsNull } from 'typeorm';
import { chunks } from '../../common/database/chunks';
import { Database } from '../../common/database/database.service';
import { KeyedRow, Keyset, KeysetSource, keysetSlice, keysetWalk, keysetWalkIds } from '../../common/database/keyset';
import { Gone, NotFound } from '../../common/errors/domain-errors';
import { AssetReader } from '../assets/asset.reader';
import { AnchorEntity } from './anchor.entity';
import { ConversationAnnotationEntity } from './conversation-annotation.entity';
import {
  ConversationAnchorEntity,
  ConversationAssetEntity,
  ConversationGroundingMessageEntity,
  ConversationGroundingRangeEntity,
  ConversationWebsiteEntity,
  ConversationWorkstreamSummaryEntity,
} from './conversation-link.entity';
import { LINKS, LinkKind } from './conversation-links';
import { ConversationMessageEntity } from './conversation-message.entity';
import { ConversationEntity } from './conversation.entity';
import { RangeEntity } from './range.entity';
import { ConversationAggregate } from './wire/conversation.wire';

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * Every read of the conversations module's tables: conversations with their messages,
 * annotations and links (a fixed number of queries per batch). What is linked from another
 * module (assets, websites) is read through that module's AssetReader, by the ids of the links.
 */
@Injectable()
export class ConversationReader {
  constructor(
    private readonly assets: AssetReader,
    private readonly db: Database,
  ) {}

  /** Live conversations as the listings walk them: see keysetWalk. */
  static readonly LISTING: KeysetSource = { table: 'conversations', where: 'deleted_at IS NULL' };

  /** Every live conversation, most recent first, `pageSize` aggregates at a time, each page in its own short reads. */
  async *walk(pageSize: number): AsyncGenerator<ConversationAggregate[]> {
    for await (const rows of keysetWalk(this.db, ConversationReader.LISTING, pageSize))
      yield await this.db.read((em) => this.liveInOrder(em, rows));
  }

  /** Ids of every live conversation, most recent first, `pageSize` at a time. */
  async *walkIds(pageSize: number): AsyncGenerator<string[]> {
    yield* keysetWalkIds(this.db, ConversationReader.LISTING, pageSize);
  }

  /** One page of the listing after `after`, and the page's last row when more follow (see keysetSlice). */
  async page(
    em: EntityManager,
    after: Keyset | null,
    limit: number,
  ): Promise<{ aggregates: ConversationAggregate[]; last: KeyedRow | null }> {
    const { rows, last } = await keysetSlice(this.db, em, ConversationReader.LISTING, after, limit);
    return { aggregates: await this.liveInOrder(em, rows), last };
  }

  /** The aggregates of the live ones among `rows`, in their order. */
  private async liveInOrder(em: EntityManager, rows: Array<{ id: string }>): Promise<ConversationAggregate[]> {
    if (rows.length === 0) return [];
    const found = await em.find(ConversationEntity, { where: { id: In(rows.map((r) => r.id)), deletedAt: IsNull() } });
    const byId = new Map(found.map((c) => [c.id, c]));
    return this.aggregates(
      em,
      rows.map((row) => byId.get(row.id)).filter((c): c is ConversationEntity => c !== undefined),
    );
  }

  /** The live conversation, or 404 (never existed) / 410 (deleted). */
  async require(em: EntityManager, id: string): Promise<ConversationEntity> {
    const conversation = await em.findOne(ConversationEntity, { where: { id } });
    if (!conversation) throw new NotFound(`conversation ${id} not found`);
    if (conversation.deletedAt) throw new Gone(`conversation ${id} no longer exists`);
    return conversation;
  }

  async one(em: EntityManager, id: string): Promise<ConversationAggregate> {
    return (await this.aggregates(em, [await this.require(em, id)]))[0];
  }

  /** Live conversations, most recent first. */
  list(em: EntityManager, limit?: number): Promise<ConversationEntity[]> {
    return em.find(ConversationEntity, {
      where: { deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /**
   * Live messages of live conversations that contain any of the words (case-insensitive
   * substring match), newest first, with their conversation's name: what question answering over
   * the whole memory (MCP's ask_pieces_ltm) reads of conversations. Ranking is the caller's. A
   * scan of the messages: conversations are few next to snippets, and this reads at most `limit`.
   */
  async messagesMatching(
    em: EntityManager,
    words: string[],
    limit: number,
  ): Promise<Array<ConversationMessageEntity & { conversationName: string | null }>> {
    if (words.length === 0) return [];
    const query = em
      .createQueryBuilder(ConversationMessageEntity, 'm')
      .innerJoin(ConversationEntity, 'c', 'c.id = m.conversation_id')
      .addSelect('c.name', 'conversation_name')
      .where('m.deleted_at IS NULL')
      .andWhere('c.deleted_at IS NULL')
      .andWhere(
        new Brackets((any) => {
          words.forEach((word, i) =>
            any.orWhere(`LOWER(m.text) LIKE :w${i} ESCAPE '\\'`, {
              [`w${i}`]: `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
            }),
          );
        }),
      )
      .orderBy('m.created_at', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .limit(limit);
    const { entities, raw } = await query.getRawAndEntities<{ conversation_name: string | null }>();
    return entities.map((m, i) => Object.assign(m, { conversationName: raw[i]?.conversation_name ?? null }));
  }

  /** Every message of a conversation (deleted ones too), in thread order. */
  messages(em: EntityManager, conversationId: string): Promise<ConversationMessageEntity[]> {
    return em.find(ConversationMessageEntity, {
      where: { conversationId },
      order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** The messages of the given ids (of any conversation, deleted ones too), in thread order; unknown ids are left out. */
  async messagesById(em: EntityManager, ids: string[]): Promise<ConversationMessageEntity[]> {
    const found: ConversationMessageEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      found.push(...(await em.find(ConversationMessageEntity, { where: { id: In(part) } })));
    return found.sort((a, b) => a.position - b.position);
  }

  /** A message of a live conversation: 404 unknown, 410 when it or its conversation was deleted. */
  async message(em: EntityManager, id: string): Promise<ConversationMessageEntity> {
    const message = await em.findOne(ConversationMessageEntity, { where: { id } });
    if (!message) throw new NotFound(`message ${id} not found`);
    await this.require(em, message.conversationId);
    if (message.deletedAt) throw new Gone(`message ${id} no longer exists`);
    return message;
  }

  /** A conversation's annotations. */
  annotations(em: EntityManager, conversationId: string): Promise<ConversationAnnotationEntity[]> {
    return em.find(ConversationAnnotationEntity, { where: { conversationId } });
  }

  /** An annotation of a live conversation, or null. */
  async annotation(em: EntityManager, id: string): Promise<ConversationAnnotationEntity | null> {
    const annotation = await em.findOne(ConversationAnnotationEntity, { where: { id } });
    if (!annotation) return null;
    const conversation = await em.findOne(ConversationEntity, { where: { id: annotation.conversationId } });
    return conversation && !conversation.deletedAt ? annotation : null;
  }

  /** An anchor, or 404. */
  async anchor(em: EntityManager, id: string): Promise<AnchorEntity> {
    const anchor = await em.findOne(AnchorEntity, { where: { id } });
    if (!anchor) throw new NotFound(`anchor ${id} not found`);
    return anchor;
  }

  /** The earliest anchor of a path and type, if there is one. */
  anchorOfPath(em: EntityManager, fullpath: string, type: string): Promise<AnchorEntity | null> {
    return em.findOne(AnchorEntity, { where: { fullpath, type }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Anchors by id (those that exist), in no particular order. */
  async anchorsByIds(em: EntityManager, ids: string[]): Promise<AnchorEntity[]> {
    const out: AnchorEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      out.push(...(await em.find(AnchorEntity, { where: { id: In(part) } })));
    return out;
  }

  /** Every anchor's id (its point's id is derived from it: see anchorWire). */
  async anchorIds(em: EntityManager): Promise<string[]> {
    return (await em.find(AnchorEntity, { select: { id: true } })).map((a) => a.id);
  }

  /** A range, or 404. */
  async range(em: EntityManager, id: string): Promise<RangeEntity> {
    const range = await em.findOne(RangeEntity, { where: { id } });
    if (!range) throw new NotFound(`range ${id} not found`);
    return range;
  }

  /** Ranges by id (those that exist), in no particular order. */
  async rangesByIds(em: EntityManager, ids: string[]): Promise<RangeEntity[]> {
    const out: RangeEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      out.push(...(await em.find(RangeEntity, { where: { id: In(part) } })));
    return out;
  }

  /** Annotations of live conversations by id (those that exist), in no particular order. */
  async annotationsByIds(em: EntityManager, ids: string[]): Promise<ConversationAnnotationEntity[]> {
    const out: ConversationAnnotationEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      out.push(...(await em.find(ConversationAnnotationEntity, { where: { id: In(part) } })));
    return out;
  }

  /**
   * Ids of the live conversations linked to each of the records (websites, anchors, ranges), in
   * link order.
   */
  async liveConversationsLinkedTo(
    em: EntityManager,
    kind: 'website' | 'anchor' | 'range',
    ids: string[],
  ): Promise<Map<string, string[]>> {
    const { join, column } = LINKS[kind];
    const out = new Map<string, string[]>(ids.map((id) => [id, []]));
    for (const part of chunks([...new Set(ids)])) {
      if (part.length === 0) continue;
      const rows = await em
        .createQueryBuilder(join, 'l')
        .innerJoin(ConversationEntity, 'c', 'c.id = l.conversation_id AND c.deleted_at IS NULL')
        .where(`l.${column} IN (:...ids)`, { ids: part })
        .orderBy('l.created_at', 'ASC')
        .addOrderBy('l.conversation_id', 'ASC')
        .select([`l.${column} AS record`, 'l.conversation_id AS conversation'])
        .getRawMany<{ record: string; conversation: string }>();
      for (const row of rows) out.get(row.record)?.push(row.conversation);
    }
    return out;
  }

  /** The listings of the records conversations are grounded in, and of their messages (see keysetWalk). */
  static readonly ANCHORS: KeysetSource = { table: 'anchors', where: '1 = 1' };
  static readonly RANGES: KeysetSource = { table: 'ranges', where: '1 = 1' };
  static readonly MESSAGES: KeysetSource = {
    table: 'conversation_messages',
    where: 'deleted_at IS NULL AND conversation_id IN (SELECT id FROM conversations WHERE deleted_at IS NULL)',
  };
  static readonly ANNOTATIONS: KeysetSource = {
    table: 'conversation_annotations',
    where: 'conversation_id IN (SELECT id FROM conversations WHERE deleted_at IS NULL)',
  };

  /** Records of a listing, most recent first, `pageSize` at a time, each page loaded by `load` in its own short read. */
  async *walkRecords<T extends { id: string }>(
    source: KeysetSource,
    pageSize: number,
    load: (em: EntityManager, ids: string[]) => Promise<T[]>,
  ): AsyncGenerator<T[]> {
    for await (const rows of keysetWalk(this.db, source, pageSize)) {
      const found = await this.db.read((em) =>
        load(
          em,
          rows.map((r) => r.id),
        ),
      );
      const byId = new Map(found.map((r) => [r.id, r]));
      yield rows.map((r) => byId.get(r.id)).filter((r): r is T => r !== undefined);
    }
  }

  /** The paths of the given anchors, in order; 404 for an unknown one. */
  async anchorPaths(em: EntityManager, ids: string[]): Promise<string[]> {
    const anchors: AnchorEntity[] = [];
    for (const part of chunks([...new Set(ids)]))
      anchors.push(...(await em.find(AnchorEntity, { where: { id: In(part) } })));
    const byId = new Map(anchors.map((a) => [a.id, a.fullpath]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing) throw new NotFound(`anchor ${missing} not found`);
    return ids.map((id) => byId.get(id)!);
  }

  /**
   * 404 when the other side of a link does not exist, as its owner says (anchors, ranges and
   * messages are this module's; assets, websites and workstream summaries the assets module's);
   * `forLink` also refuses an asset that can no longer be linked (410 once deleted).
   */
  async requireLinkTarget(em: EntityManager, kind: LinkKind, id: string, forLink: boolean): Promise<void> {
    if (kind === 'asset' && forLink) {
      await this.assets.require(em, id);
      return;
    }
    let found: boolean;
    if (kind === 'asset') found = await this.assets.exists(em, id);
    else if (kind === 'website' || kind === 'workstream_summary')
      found = await this.assets.linkTargetExists(em, kind, id);
    else if (kind === 'anchor') found = await em.exists(AnchorEntity, { where: { id } });
    else if (kind === 'range') found = await em.exists(RangeEntity, { where: { id } });
    else found = await em.exists(ConversationMessageEntity, { where: { id } });
    if (!found) throw new NotFound(`${LINKS[kind].what} ${id} not found`);
  }

  /** The ids of the assets a conversation is linked to. */
  async linkedAssetIds(em: EntityManager, conversationId: string): Promise<string[]> {
    return (await em.find(ConversationAssetEntity, { select: { assetId: true }, where: { conversationId } })).map(
      (l) => l.assetId,
    );
  }

  /** The ids of the conversations linked to an asset. */
  async conversationIdsLinkedTo(
    em: EntityManager,
    kind: 'asset' | 'workstream_summary',
    id: string,
  ): Promise<string[]> {
    const { join, column } = LINKS[kind];
    return ((await em.find(join, { where: { [column]: id } })) as Array<{ conversationId: string }>).map(
      (l) => l.conversationId,
    );
  }

  /** The other conversations grounded in messages of this one. */
  async groundedIn(em: EntityManager, conversationId: string): Promise<string[]> {
    const rows = await em
      .createQueryBuilder(ConversationGroundingMessageEntity, 'g')
      .innerJoin(ConversationMessageEntity, 'm', 'm.id = g.message_id')
      .where('m.conversation_id = :conversationId', { conversationId })
      .andWhere('g.conversation_id <> :conversationId', { conversationId })
      .select('DISTINCT g.conversation_id', 'id')
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /** Live conversations linked to a (live) asset, most recent first. */
  async ofAsset(em: EntityManager, assetId: string): Promise<ConversationEntity[]> {
    return em
      .createQueryBuilder(ConversationEntity, 'c')
      .innerJoin(ConversationAssetEntity, 'l', 'l.conversation_id = c.id')
      .where('l.asset_id = :assetId', { assetId })
      .andWhere('c.deleted_at IS NULL')
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getMany();
  }

  async aggregates(em: EntityManager, conversations: ConversationEntity[]): Promise<ConversationAggregate[]> {
    if (conversations.length === 0) return [];
    const messages: ConversationMessageEntity[] = [];
    const annotations: ConversationAnnotationEntity[] = [];
    const assetLinks: ConversationAssetEntity[] = [];
    const websiteLinks: ConversationWebsiteEntity[] = [];
    const anchorLinks: ConversationAnchorEntity[] = [];
    const summaryLinks: ConversationWorkstreamSummaryEntity[] = [];
    const rangeLinks: ConversationGroundingRangeEntity[] = [];
    const groundingLinks: ConversationGroundingMessageEntity[] = [];
    for (const ids of chunks(conversations.map((c) => c.id))) {
      const where = { conversationId: In(ids) };
      const order = { createdAt: 'ASC' as const };
      // One after another: inside a transaction they share one connection (pg warns on overlap).
      const m = await em.find(ConversationMessageEntity, {
        where,
        select: { id: true, conversationId: true, position: true, deletedAt: true, createdAt: true },
        order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' },
      });
      const a = await em.find(ConversationAnnotationEntity, { where, order: { createdAt: 'ASC', id: 'ASC' } });
      const as = await em.find(ConversationAssetEntity, { where, order });
      const w = await em.find(ConversationWebsiteEntity, { where, order });
      const an = await em.find(ConversationAnchorEntity, { where, relations: { anchor: true }, order });
      const s = await em.find(ConversationWorkstreamSummaryEntity, { where, order });
      const r = await em.find(ConversationGroundingRangeEntity, { where, order });
      const g = await em.find(ConversationGroundingMessageEntity, { where, order });
      messages.push(...m);
      annotations.push(...a);
      assetLinks.push(...as);
      websiteLinks.push(...w);
      anchorLinks.push(...an);
      summaryLinks.push(...s);
      rangeLinks.push(...r);
      groundingLinks.push(...g);
    }

    // Linked assets and websites, as the assets module reads them; a deleted asset is no longer linked.
    const assetById = new Map(
      (
        await this.assets.liveAggregates(
          em,
          assetLinks.map((l) => l.assetId),
        )
      ).map((a) => [a.asset.id, a]),
    );
    const websiteById = new Map(
      (
        await this.assets.websites(
          em,
          websiteLinks.map((l) => l.websiteId),
        )
      ).map((w) => [w.id, w]),
    );

    const messagesOf = groupBy(messages, (m) => m.conversationId);
    const annotationsOf = groupBy(annotations, (a) => a.conversationId);
    const assetsOf = groupBy(assetLinks, (l) => l.conversationId);
    const websitesOf = groupBy(websiteLinks, (l) => l.conversationId);
    const anchorsOf = groupBy(anchorLinks, (l) => l.conversationId);
    const summariesOf = groupBy(summaryLinks, (l) => l.conversationId);
    const rangesOf = groupBy(rangeLinks, (l) => l.conversationId);
    const groundingOf = groupBy(groundingLinks, (l) => l.conversationId);
    return conversations.map((conversation) => ({
      conversation,
      messages: messagesOf.get(conversation.id) ?? [],
      annotations: annotationsOf.get(conversation.id) ?? [],
      assets: (assetsOf.get(conversation.id) ?? []).flatMap((l) => assetById.get(l.assetId) ?? []),
      websites: (websitesOf.get(conversation.id) ?? []).flatMap((l) => websiteById.get(l.websiteId) ?? []),
      anchors: (anchorsOf.get(conversation.id) ?? []).map((l): AnchorEntity => l.anchor),
      summaryIds: (summariesOf.get(conversation.id) ?? []).map((l) => l.workstreamSummaryId),
      rangeIds: (rangesOf.get(conversation.id) ?? []).map((l) => l.rangeId),
      groundingMessageIds: (groundingOf.get(conversation.id) ?? []).map((l) => l.messageId),
    }));
  }
}
