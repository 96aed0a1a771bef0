import { BadRequestException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { nowIso } from '../../common/wire/common.wire';
import { AnnotationEntity } from './annotation.entity';

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

/** One kind of linked record: its table and unique key, the other columns it is created with, its join table. */
interface LinkKind {
  records: string;
  key: string;
  columns: [string, string];
  links: string;
  link: string;
}
const TAGS: LinkKind = { records: 'tags', key: 'text', columns: ['category', 'mechanism'], links: 'asset_tags', link: 'tag_id' };
const WEBSITES: LinkKind = { records: 'websites', key: 'url', columns: ['name', 'mechanism'], links: 'asset_websites', link: 'website_id' };

interface LinkOptions {
  /** The asset was created in this transaction: it has no links yet, so none is stale. */
  created?: boolean;
}

/**
 * Writes an asset's satellite records inside the caller's transaction. Tags and websites
 * are one row per distinct text/URL, linked through join rows, so both sides agree.
 */
@Injectable()
export class AssetWriter {
  constructor(private readonly db: Database) {}

  /** Makes the asset's tags exactly `inputs` (by text). */
  async setTags(em: EntityManager, assetId: string, inputs: TagInput[], options: LinkOptions = {}): Promise<void> {
    const values = inputs.map((input) => [normaliseTag(input.text), input.category ?? 'UNKNOWN', input.mechanism ?? 'MANUAL']);
    await this.setLinks(em, assetId, TAGS, values, options);
  }

  /** Makes the asset's websites exactly `inputs` (by URL). */
  async setWebsites(em: EntityManager, assetId: string, inputs: WebsiteInput[], options: LinkOptions = {}): Promise<void> {
    const values = inputs.map((input) => {
      const url = normaliseUrl(input.url);
      return [url, input.name?.trim() || new URL(url).hostname, input.mechanism ?? 'MANUAL'];
    });
    await this.setLinks(em, assetId, WEBSITES, values, options);
  }

  /**
   * Makes the asset's links of one kind exactly `values` ([key, column, column] each), in three
   * prepared statements whatever their number: records not there yet are created (an existing
   * one is kept as it is), links to others are removed, the missing links are added in the
   * given order (each link's time is taken in turn, and links are listed by time).
   */
  private async setLinks(em: EntityManager, assetId: string, kind: LinkKind, values: string[][], { created = false }: LinkOptions): Promise<void> {
    const rows = JSON.stringify(values.map(([key, ...columns]) => [randomUUID(), nowIso(), key, ...columns]));
    const elements = this.db.jsonElements(1);
    const join = `${this.db.drivingJoin} ${kind.records} r ON r.${kind.key} = value ->> 2`;
    // WHERE true: SQLite would otherwise read ON CONFLICT as a join's ON
    await this.db.query(em,
      `INSERT INTO ${kind.records} (id, ${kind.key}, ${kind.columns.join(', ')}, created_at, updated_at)
       SELECT value ->> 0, value ->> 2, value ->> 3, value ->> 4, value ->> 1, value ->> 1 FROM ${elements} WHERE true ON CONFLICT DO NOTHING`,
      [rows],
    );
    if (!created) await this.db.query(em, `DELETE FROM ${kind.links} WHERE asset_id = ${this.db.param(2)} AND ${kind.link} NOT IN (SELECT r.id FROM ${elements} ${join})`, [rows, assetId]);
    await this.db.query(em,
      `INSERT INTO ${kind.links} (asset_id, ${kind.link}, created_at) SELECT ${this.db.param(2)}, r.id, value ->> 1 FROM ${elements} ${join} WHERE true ON CONFLICT DO NOTHING`,
      [rows, assetId],
    );
  }

  /** Adds annotations, listed in the given order (each one's time is taken in turn). */
  async addAnnotations(em: EntityManager, assetId: string, inputs: AnnotationInput[]): Promise<void> {
    for (const input of inputs) {
      const now = nowIso();
      await this.db.insert(em, AnnotationEntity, {
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
