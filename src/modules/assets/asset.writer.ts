import { BadRequestException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, Not } from 'typeorm';
import { nowIso } from '../../common/wire/common.wire';
import { AnnotationEntity } from './annotation.entity';
import { AssetTagEntity, TagEntity } from './tag.entity';
import { AssetWebsiteEntity, WebsiteEntity } from './website.entity';

export interface TagInput {
  text: string;
  category?: string;
  mechanism?: string;
}
export interface WebsiteInput {
  url: string;
  name?: string;
  mechanism?: string;
}
export interface AnnotationInput {
  id?: string;
  type: string;
  text: string;
  mechanism?: string;
}

/** Normalised URL, or a 400 naming the bad value. Only http(s) links are stored. */
export function normaliseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new BadRequestException(`website url "${url}" is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BadRequestException(`website url "${url}" must be http or https`);
  }
  return parsed.toString();
}

export function normaliseTag(text: string): string {
  const tag = text.trim().replace(/\s+/g, ' ');
  if (!tag) throw new BadRequestException('tag text must not be empty');
  return tag;
}

/**
 * Writes an asset's satellite records inside the caller's transaction. Tags and websites
 * are one row per distinct text/URL, linked through join rows, so both sides agree.
 */
@Injectable()
export class AssetWriter {
  async ensureTag(em: EntityManager, input: TagInput): Promise<TagEntity> {
    const text = normaliseTag(input.text);
    const now = nowIso();
    await em
      .createQueryBuilder()
      .insert()
      .into(TagEntity)
      .values({ id: randomUUID(), text, category: input.category ?? 'UNKNOWN', mechanism: input.mechanism ?? 'MANUAL', createdAt: now, updatedAt: now })
      .orIgnore()
      .execute();
    return em.findOneOrFail(TagEntity, { where: { text } });
  }

  async ensureWebsite(em: EntityManager, input: WebsiteInput): Promise<WebsiteEntity> {
    const url = normaliseUrl(input.url);
    const now = nowIso();
    const name = input.name?.trim() || new URL(url).hostname;
    await em
      .createQueryBuilder()
      .insert()
      .into(WebsiteEntity)
      .values({ id: randomUUID(), url, name, mechanism: input.mechanism ?? 'MANUAL', createdAt: now, updatedAt: now })
      .orIgnore()
      .execute();
    return em.findOneOrFail(WebsiteEntity, { where: { url } });
  }

  async linkTag(em: EntityManager, assetId: string, tagId: string): Promise<void> {
    await em.createQueryBuilder().insert().into(AssetTagEntity).values({ assetId, tagId, createdAt: nowIso() }).orIgnore().execute();
  }

  async linkWebsite(em: EntityManager, assetId: string, websiteId: string): Promise<void> {
    await em.createQueryBuilder().insert().into(AssetWebsiteEntity).values({ assetId, websiteId, createdAt: nowIso() }).orIgnore().execute();
  }

  /** Makes the asset's tags exactly `inputs` (by text). */
  async setTags(em: EntityManager, assetId: string, inputs: TagInput[]): Promise<void> {
    const tags = [];
    for (const input of inputs) tags.push(await this.ensureTag(em, input));
    const keep = tags.map((t) => t.id);
    await em.delete(AssetTagEntity, { assetId, ...(keep.length ? { tagId: Not(In(keep)) } : {}) });
    for (const tag of tags) await this.linkTag(em, assetId, tag.id);
  }

  /** Makes the asset's websites exactly `inputs` (by URL). */
  async setWebsites(em: EntityManager, assetId: string, inputs: WebsiteInput[]): Promise<void> {
    const websites = [];
    for (const input of inputs) websites.push(await this.ensureWebsite(em, input));
    const keep = websites.map((w) => w.id);
    await em.delete(AssetWebsiteEntity, { assetId, ...(keep.length ? { websiteId: Not(In(keep)) } : {}) });
    for (const website of websites) await this.linkWebsite(em, assetId, website.id);
  }

  async addAnnotations(em: EntityManager, assetId: string, inputs: AnnotationInput[]): Promise<void> {
    const now = nowIso();
    for (const input of inputs) {
      await em.insert(AnnotationEntity, {
        id: randomUUID(),
        assetId,
        type: input.type,
        text: input.text,
        mechanism: input.mechanism ?? 'MANUAL',
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  /** Makes the asset's annotations exactly `inputs`: known ids are updated, others added, the rest removed. */
  async setAnnotations(em: EntityManager, assetId: string, inputs: AnnotationInput[]): Promise<void> {
    const existing = await em.find(AnnotationEntity, { where: { assetId } });
    const byId = new Map(existing.map((a) => [a.id, a]));
    const kept = new Set<string>();
    const added: AnnotationInput[] = [];
    const now = nowIso();
    for (const input of inputs) {
      const current = input.id ? byId.get(input.id) : undefined;
      if (!current) {
        added.push(input);
        continue;
      }
      kept.add(current.id);
      if (current.text !== input.text || current.type !== input.type) {
        await em.update(AnnotationEntity, { id: current.id }, { text: input.text, type: input.type, updatedAt: now });
      }
    }
    const removed = existing.filter((a) => !kept.has(a.id)).map((a) => a.id);
    if (removed.length) await em.delete(AnnotationEntity, { id: In(removed) });
    await this.addAnnotations(em, assetId, added);
  }
}
