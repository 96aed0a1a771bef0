import { Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { In } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { Outbox } from '../../common/events/outbox';
import { nowIso } from '../../common/wire/common.wire';
import { ModelEntity } from './model.entity';
import { ModelChangedEvent } from './events/model-changed.event';

/**
 * Every write to the models table, each in one Database.transaction together with its
 * change-stream outbox row (`models` topic), each followed by a ModelChangedEvent after commit.
 */
@Injectable()
export class ModelStore {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly outbox: Outbox,
  ) {}

  all(): Promise<ModelEntity[]> {
    return this.db.read((em) => em.find(ModelEntity, { order: { createdAt: 'ASC', id: 'ASC' } }));
  }

  one(id: string): Promise<ModelEntity | null> {
    return this.db.read((em) => em.findOne(ModelEntity, { where: { id } }));
  }

  /** Records provider models not seen before (stable id and `created`); returns the rows of all of them. */
  async recordDiscovered(rows: Array<Omit<ModelEntity, 'createdAt' | 'updatedAt'>>): Promise<Map<string, ModelEntity>> {
    if (rows.length === 0) return new Map();
    const ids = rows.map((r) => r.id);
    const known = await this.db.read((em) => em.find(ModelEntity, { where: { id: In(ids) } }));
    const byId = new Map(known.map((r) => [r.id, r]));
    const fresh = rows.filter((r) => !byId.has(r.id));
    if (fresh.length) {
      const inserted = await this.db.transaction(async (em) => {
        const out: ModelEntity[] = [];
        for (const row of fresh) {
          // Another request (or instance) may record the same model at the same time: the first insert wins.
          const now = nowIso();
          const entity = { ...row, createdAt: now, updatedAt: now } as ModelEntity;
          await em.createQueryBuilder().insert().into(ModelEntity).values(entity).orIgnore().execute();
          const stored = await em.findOne(ModelEntity, { where: { id: row.id } });
          if (stored && stored.createdAt === now) out.push(stored);
          else if (stored) byId.set(stored.id, stored);
        }
        await this.outbox.appendMany(em, out.map((row) => ({ topic: 'models' as const, id: row.id })));
        return out;
      });
      for (const row of inserted) {
        byId.set(row.id, row);
        this.events.publish(new ModelChangedEvent(row.id, false));
      }
    }
    return byId;
  }

  /** Creates a custom model, or returns the existing one with the same fingerprint (no duplicates). */
  async createCustom(row: Omit<ModelEntity, 'createdAt' | 'updatedAt'>): Promise<{ entity: ModelEntity; created: boolean }> {
    const result = await this.db.transaction(async (em) => {
      const existing = await em.findOne(ModelEntity, { where: { fingerprint: row.fingerprint } });
      if (existing) return { entity: existing, created: false };
      const now = nowIso();
      const entity = { ...row, createdAt: now, updatedAt: now } as ModelEntity;
      // Two identical creates at once (PostgreSQL, several instances): the unique fingerprint keeps one.
      await em.createQueryBuilder().insert().into(ModelEntity).values(entity).orIgnore().execute();
      const stored = (await em.findOne(ModelEntity, { where: { fingerprint: row.fingerprint } }))!;
      if (stored.id === entity.id) await this.outbox.append(em, 'models', stored.id);
      return { entity: stored, created: stored.id === entity.id };
    });
    if (result.created) this.events.publish(new ModelChangedEvent(result.entity.id, false));
    return result;
  }

  /** Removes model rows (a deleted custom model, a model its provider deleted). */
  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const removed = await this.db.transaction(async (em) => {
      const rows = await em.find(ModelEntity, { where: { id: In(ids) } });
      if (rows.length) await em.delete(ModelEntity, { id: In(rows.map((r) => r.id)) });
      await this.outbox.appendMany(em, rows.map((r) => ({ topic: 'models' as const, id: r.id, deleted: true })));
      return rows.map((r) => r.id);
    });
    for (const id of removed) this.events.publish(new ModelChangedEvent(id, true));
  }
}
