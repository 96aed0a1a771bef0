import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApplicationEntity } from './application.entity';

/** Every write of the applications table, inside the caller's transaction. */
@Injectable()
export class ApplicationWriter {
  /** Records an application unless one with its id or identity exists (concurrent first sightings: the first insert wins). */
  async insertIfAbsent(em: EntityManager, app: ApplicationEntity): Promise<void> {
    await em.createQueryBuilder().insert().into(ApplicationEntity).values(app).orIgnore().execute();
  }

  /** The application called POST /connect at `connectedAt`. */
  async markConnected(em: EntityManager, id: string, connectedAt: string): Promise<void> {
    await em.update(ApplicationEntity, { id }, { connectedAt });
  }

  /** What POST /application/update may change: the application's settings, never its identity. */
  async updateSettings(
    em: EntityManager,
    id: string,
    settings: Partial<Pick<ApplicationEntity, 'capabilities' | 'privacy' | 'onboarded'>>,
  ): Promise<void> {
    if (Object.keys(settings).length) await em.update(ApplicationEntity, { id }, settings);
  }

  /** Whether the user finished onboarding in the application (POST /{application}/onboarded). */
  async setOnboarded(em: EntityManager, id: string, onboarded: boolean): Promise<void> {
    await em.update(ApplicationEntity, { id }, { onboarded });
  }
}
