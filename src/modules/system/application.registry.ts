import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { nowIso } from '../../common/wire/common.wire';
import { INTERFACE_VERSION } from '../../version';
import { ApplicationDto } from './dto/application.dto';
import { ApplicationEntity } from './application.entity';

/** Trove itself, credited with content that arrives without an application. */
const SELF = { name: 'OPEN_SOURCE', version: INTERFACE_VERSION, platform: platformOf(process.platform) };

/** Seeds name an application by our id, or by name + version + platform. */
function identityKey(dto?: ApplicationDto): string {
  if (!dto) return 'self';
  return dto.id ? `id:${dto.id}|${dto.name}|${dto.version}|${dto.platform}` : `who:${dto.name}|${dto.version}|${dto.platform}`;
}

function platformOf(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'MACOS' : platform === 'win32' ? 'WINDOWS' : platform === 'linux' ? 'LINUX' : 'UNKNOWN';
}

/**
 * Finds or records the Application a seed names, inside the caller's transaction.
 * Owned by the system module; other modules use it instead of touching the table.
 */
@Injectable()
export class ApplicationRegistry implements OnApplicationBootstrap {
  /** Ids of applications known to be committed, by identity: they are never deleted or renamed. */
  private readonly committed = new Map<string, string>();

  constructor(private readonly db: Database) {}

  /** Trove's own Application is recorded at boot, so no later request writes it as a side effect. */
  async onApplicationBootstrap(): Promise<void> {
    const self = await this.db.transaction((em) => this.resolve(em));
    this.remember(undefined, self.id);
  }

  /** The id of the Application a seed names (recorded when new), inside the caller's transaction. */
  async resolveId(em: EntityManager, dto?: ApplicationDto): Promise<string> {
    const cached = this.committed.get(identityKey(dto));
    if (cached) return cached;
    return (await this.resolve(em, dto)).id;
  }

  /** Call after the transaction that resolved `id` committed: later resolutions skip the database. */
  remember(dto: ApplicationDto | undefined, id: string): void {
    this.committed.set(identityKey(dto), id);
  }

  async resolve(em: EntityManager, dto?: ApplicationDto): Promise<ApplicationEntity> {
    if (dto?.id) {
      const known = await em.findOne(ApplicationEntity, { where: { id: dto.id } });
      if (known) return known;
    }
    const identity = dto ? { name: dto.name, version: dto.version, platform: dto.platform } : SELF;
    const existing = await em.findOne(ApplicationEntity, { where: identity });
    if (existing) return existing;
    // Concurrent first sightings of one application: the first insert wins, the others reuse it.
    await em
      .createQueryBuilder()
      .insert()
      .into(ApplicationEntity)
      .values({
        id: randomUUID(),
        ...identity,
        onboarded: dto?.onboarded ?? false,
        privacy: dto?.privacy ?? 'OPEN',
        connectedAt: null,
        createdAt: nowIso(),
      })
      .orIgnore()
      .execute();
    return em.findOneOrFail(ApplicationEntity, { where: identity });
  }
}
