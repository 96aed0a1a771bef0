import { GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { EntityManager, In, IsNull } from 'typeorm';
import { AnnotationEntity } from './annotation.entity';
import { AssetEntity } from './asset.entity';
import { FormatEntity } from './format.entity';
import { AssetTagEntity, TagEntity } from './tag.entity';
import { AssetWebsiteEntity, WebsiteEntity } from './website.entity';
import { AssetAggregate } from './wire/asset.wire';

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

/** Loads assets with their formats, annotations, tags and websites: a fixed number of queries per batch. */
@Injectable()
export class AssetReader {
  /** The live asset, or 404 (never existed) / 410 (deleted). */
  async require(em: EntityManager, id: string): Promise<AssetEntity> {
    const asset = await em.findOne(AssetEntity, { where: { id } });
    if (!asset) throw new NotFoundException(`asset ${id} not found`);
    if (asset.deletedAt) throw new GoneException(`asset ${id} no longer exists`);
    return asset;
  }

  async one(em: EntityManager, id: string): Promise<AssetAggregate> {
    const asset = await this.require(em, id);
    return (await this.aggregates(em, [asset]))[0];
  }

  /** Live assets, most recent first. */
  async list(em: EntityManager, options: { pseudo?: boolean } = {}): Promise<AssetEntity[]> {
    return em.find(AssetEntity, {
      where: { deletedAt: IsNull(), ...(options.pseudo ? {} : { pseudo: false }) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  async aggregates(em: EntityManager, assets: AssetEntity[]): Promise<AssetAggregate[]> {
    if (assets.length === 0) return [];
    const formats: FormatEntity[] = [];
    const annotations: AnnotationEntity[] = [];
    const tagLinks: AssetTagEntity[] = [];
    const websiteLinks: AssetWebsiteEntity[] = [];
    for (const ids of chunks(assets.map((a) => a.id))) {
      const [f, a, t, w] = await Promise.all([
        em.find(FormatEntity, { where: { assetId: In(ids) }, relations: { application: true }, order: { position: 'ASC' } }),
        em.find(AnnotationEntity, { where: { assetId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
        em.find(AssetTagEntity, { where: { assetId: In(ids) }, relations: { tag: true }, order: { createdAt: 'ASC' } }),
        em.find(AssetWebsiteEntity, { where: { assetId: In(ids) }, relations: { website: true }, order: { createdAt: 'ASC' } }),
      ]);
      formats.push(...f);
      annotations.push(...a);
      tagLinks.push(...t);
      websiteLinks.push(...w);
    }
    const formatsOf = groupBy(formats, (f) => f.assetId);
    const annotationsOf = groupBy(annotations, (a) => a.assetId!);
    const tagsOf = groupBy(tagLinks, (l) => l.assetId);
    const websitesOf = groupBy(websiteLinks, (l) => l.assetId);
    return assets.map((asset) => ({
      asset,
      formats: formatsOf.get(asset.id) ?? [],
      annotations: annotationsOf.get(asset.id) ?? [],
      tags: (tagsOf.get(asset.id) ?? []).map((l): TagEntity => l.tag),
      websites: (websitesOf.get(asset.id) ?? []).map((l): WebsiteEntity => l.website),
    }));
  }
}
