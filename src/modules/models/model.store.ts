import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { Unprocessable } from '../../common/errors/domain-errors';
import { nowIso } from '../../common/wire/common.wire';
import { ModelEntity } from './model.entity';
import { ModelUnitOfWork } from './model-unit-of-work';

/**
 * Most custom models a store keeps: `GET /models`, the models stream's first frame and every
 * model lookup read the whole list, so it stays small by design (a few hundred kilobytes).
 */
export const MAX_CUSTOM_MODELS = 1000;

/** Every read and write of the models table; the writes run as units of work (ModelUnitOfWork). */
@Injectable()
export class ModelStore {
  constructor(
    private readonly db: Database,
    private readonly uow: ModelUnitOfWork,
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
      const inserted = await this.uow.run(async ({ em, changed }) => {
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
        for (const row of out) changed({ id: row.id });
        return out;
      });
      for (const row of inserted) byId.set(row.id, row);
    }
    return byId;
  }

  /** Creates a custom model, or returns the existing one with the same fingerprint (no duplicates). */
  async createCustom(
    row: Omit<ModelEntity, 'createdAt' | 'updatedAt'>,
  ): Promise<{ entity: ModelEntity; created: boolean }> {
    return this.uow.run(async ({ em, changed }) => {
      const existing = await em.findOne(ModelEntity, { where: { fingerprint: row.fingerprint } });
      if (existing) return { entity: existing, created: false };
      if ((await em.count(ModelEntity, { where: { custom: true } })) >= MAX_CUSTOM_MODELS) {
        throw new Unprocessable(
          `a store keeps at most ${MAX_CUSTOM_MODELS} custom models: delete some (POST /models/{model}/delete) first`,
        );
      }
      const now = nowIso();
      const entity = { ...row, createdAt: now, updatedAt: now } as ModelEntity;
      // Two identical creates at once (PostgreSQL, several instances): the unique fingerprint keeps one.
      await em.createQueryBuilder().insert().into(ModelEntity).values(entity).orIgnore().execute();
      const stored = (await em.findOne(ModelEntity, { where: { fingerprint: row.fingerprint } }))!;
      if (stored.id === entity.id) changed({ id: stored.id });
      return { entity: stored, created: stored.id === entity.id };
    });
  }

  /** Removes model rows (a deleted custom model, a model its provider deleted). */
  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.uow.run(async ({ em, changed }) => {
      const rows = await em.find(ModelEntity, { where: { id: In(ids) } });
      if (rows.length) await em.delete(ModelEntity, { id: In(rows.map((r) => r.id)) });
      for (const row of rows) changed({ id: row.id, deleted: true });
    });
  }
}
