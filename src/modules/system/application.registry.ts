import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { nowIso } from '../../common/wire/common.wire';
import { INTERFACE_VERSION } from '../../version';
import { ApplicationDto } from './dto/application.dto';
import { ApplicationEntity } from './application.entity';
import { ApplicationIdentity, ApplicationReader } from './application.reader';
import { ApplicationWriter } from './application.writer';

/** Trove itself, credited with content that arrives without an application. */
const SELF: ApplicationIdentity = {
  name: 'OPEN_SOURCE',
  version: INTERFACE_VERSION,
  platform: platformOf(process.platform),
};

/** Seeds name an application by our id, or by name + version + platform. */
function identityKey(dto?: ApplicationDto): string {
  if (!dto) return 'self';
  return dto.id
    ? `id:${dto.id}|${dto.name}|${dto.version}|${dto.platform}`
    : `who:${dto.name}|${dto.version}|${dto.platform}`;
}

function platformOf(platform: NodeJS.Platform): string {
  return platform === 'darwin'
    ? 'MACOS'
    : platform === 'win32'
      ? 'WINDOWS'
      : platform === 'linux'
        ? 'LINUX'
        : 'UNKNOWN';
}

/**
 * Finds or records the Application a seed names, and records what happens to it (connected,
 * onboarded), inside the caller's transaction. Owned by the system module; other modules use it
 * (and ApplicationReader) instead of touching the table; its statements are in
 * ApplicationReader and ApplicationWriter.
 */
@Injectable()
export class ApplicationRegistry implements OnApplicationBootstrap {
  /** Ids of applications known to be committed, by identity: they are never deleted or renamed. */
  private readonly committed = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly reader: ApplicationReader,
    private readonly writer: ApplicationWriter,
  ) {}

  /** Trove's own Application is recorded at boot, so no later request writes it as a side effect. */
  async onApplicationBootstrap(): Promise<void> {
    const self = await this.db.transaction((em) => this.resolve(em));
    this.remember(undefined, self.id);
  }

  /** Trove's own Application, read (it is recorded at boot): for read paths, which write nothing. */
  async self(em: EntityManager): Promise<ApplicationEntity> {
    const self = await this.reader.byIdentity(em, SELF);
    if (!self)
      throw new Error(`Trove's own application (${SELF.name} ${SELF.version} ${SELF.platform}) is not recorded`);
    return self;
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
      const known = await this.reader.byId(em, dto.id);
      if (known) return known;
    }
    const identity: ApplicationIdentity = dto ? { name: dto.name, version: dto.version, platform: dto.platform } : SELF;
    const existing = await this.reader.byIdentity(em, identity);
    if (existing) return existing;
    // Concurrent first sightings of one application: the first insert wins, the others reuse it.
    await this.writer.insertIfAbsent(em, {
      id: randomUUID(),
      ...identity,
      onboarded: dto?.onboarded ?? false,
      privacy: dto?.privacy ?? 'OPEN',
      capabilities: 'LOCAL',
      connectedAt: null,
      createdAt: nowIso(),
    });
    const recorded = await this.reader.byIdentity(em, identity);
    if (!recorded)
      throw new Error(`application ${identity.name} ${identity.version} ${identity.platform} was not recorded`);
    return recorded;
  }

  /** Marks the application connected (POST /connect), inside the caller's transaction; answers its connection time. */
  async markConnected(em: EntityManager, id: string): Promise<string> {
    const connectedAt = nowIso();
    await this.writer.markConnected(em, id, connectedAt);
    return connectedAt;
  }

  /** Stores the settings POST /application/update changes, inside the caller's transaction. */
  updateSettings(
    em: EntityManager,
    id: string,
    settings: Parameters<ApplicationWriter['updateSettings']>[2],
  ): Promise<void> {
    return this.writer.updateSettings(em, id, settings);
  }

  /** Stores whether the user finished onboarding in the application, inside the caller's transaction. */
  setOnboarded(em: EntityManager, id: string, onboarded: boolean): Promise<void> {
    return this.writer.setOnboarded(em, id, onboarded);
  }
}
