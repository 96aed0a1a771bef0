import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, Not } from 'typeorm';
import { hydrate, jsonColumns } from '../../common/database/entity-rows';
import { ApplicationEntity } from './application.entity';

/** What names an application besides its id. */
export interface ApplicationIdentity {
  name: string;
  version: string;
  platform: string;
}

/**
 * Every read of the applications table (the system module's own and other modules'). `joinedJson` is the one place another
 * module's statement names `applications`: the asset read shows each format's application and
 * stays one statement per read (docs/ARCHITECTURE.md, The read path), so it composes this
 * fragment, which the system module owns, instead of reading applications separately.
 */
@Injectable()
export class ApplicationReader {
  /** The application with this id, or null. */
  byId(em: EntityManager, id: string): Promise<ApplicationEntity | null> {
    return em.findOne(ApplicationEntity, { where: { id } });
  }

  /** The application of this name + version + platform, or null. */
  byIdentity(em: EntityManager, identity: ApplicationIdentity): Promise<ApplicationEntity | null> {
    return em.findOne(ApplicationEntity, {
      where: { name: identity.name, version: identity.version, platform: identity.platform },
    });
  }

  /** Applications that called POST /connect, most recently connected first. */
  connected(em: EntityManager): Promise<ApplicationEntity[]> {
    return em.find(ApplicationEntity, { where: { connectedAt: Not(IsNull()) }, order: { connectedAt: 'DESC' } });
  }

  /** Applications by id, in no particular order. */
  byIds(em: EntityManager, ids: string[]): Promise<ApplicationEntity[]> {
    return ids.length ? em.find(ApplicationEntity, { where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /**
   * `join`: a JOIN of `applications` as `alias` on `on`; `pairs`: the key/value pairs of a JSON
   * object of its columns (for json_object / json_build_object), from the entity's metadata.
   */
  static joinedJson(em: EntityManager, alias: string, on: string): { join: string; pairs: string } {
    return {
      join: `JOIN applications ${alias} ON ${alias}.id = ${on}`,
      pairs: jsonColumns(em, ApplicationEntity, alias),
    };
  }

  /** An application from the JSON object of `joinedJson`, by the entity's metadata (booleans come back as 0/1 from SQLite). */
  static fromJson(em: EntityManager, row: Record<string, unknown>): ApplicationEntity {
    return hydrate(em, ApplicationEntity, row);
  }
}
