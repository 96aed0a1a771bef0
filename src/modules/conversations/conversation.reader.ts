import { GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { AssetReader } from '../assets/asset.reader';
import { AssetEntity } from '../assets/asset.entity';
import { WebsiteEntity } from '../assets/website.entity';
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
import { ConversationMessageEntity } from './conversation-message.entity';
import { ConversationEntity } from './conversation.entity';
import { ConversationAggregate } from './wire/conversation.wire';

/** SQLite allows 32766 bound parameters; stay far below for IN (...) lists. */
const CHUNK = 500;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

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

/** Loads conversations with their messages, annotations and links: a fixed number of queries per batch. */
@Injectable()
export class ConversationReader {
  constructor(private readonly assets: AssetReader) {}

  /** The live conversation, or 404 (never existed) / 410 (deleted). */
  async require(em: EntityManager, id: string): Promise<ConversationEntity> {
    const conversation = await em.findOne(ConversationEntity, { where: { id } });
    if (!conversation) throw new NotFoundException(`conversation ${id} not found`);
    if (conversation.deletedAt) throw new GoneException(`conversation ${id} no longer exists`);
    return conversation;
  }

  async one(em: EntityManager, id: string): Promise<ConversationAggregate> {
    return (await this.aggregates(em, [await this.require(em, id)]))[0];
  }

  /** Live conversations, most recent first. */
  list(em: EntityManager): Promise<ConversationEntity[]> {
    return em.find(ConversationEntity, { where: { deletedAt: IsNull() }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Every message of a conversation (deleted ones too), in thread order. */
  messages(em: EntityManager, conversationId: string): Promise<ConversationMessageEntity[]> {
    return em.find(ConversationMessageEntity, { where: { conversationId }, order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } });
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
      const w = await em.find(ConversationWebsiteEntity, { where, relations: { website: true }, order });
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

    // Linked assets, as the assets module renders them; a deleted asset is no longer linked.
    const assetIds = [...new Set(assetLinks.map((l) => l.assetId))];
    const liveAssets: AssetEntity[] = [];
    for (const ids of chunks(assetIds)) liveAssets.push(...(await em.find(AssetEntity, { where: { id: In(ids), deletedAt: IsNull() } })));
    const assetById = new Map((await this.assets.aggregates(em, liveAssets)).map((a) => [a.asset.id, a]));

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
      websites: (websitesOf.get(conversation.id) ?? []).map((l): WebsiteEntity => l.website),
      anchors: (anchorsOf.get(conversation.id) ?? []).map((l): AnchorEntity => l.anchor),
      summaryIds: (summariesOf.get(conversation.id) ?? []).map((l) => l.workstreamSummaryId),
      rangeIds: (rangesOf.get(conversation.id) ?? []).map((l) => l.rangeId),
      groundingMessageIds: (groundingOf.get(conversation.id) ?? []).map((l) => l.messageId),
    }));
  }
}
