import { isUUID } from 'class-validator';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { InvalidInput, Unauthorized } from '../../common/errors/domain-errors';
import type { ApplicationEntity } from '../system/application.entity';
import { ApplicationReader } from '../system/application.reader';

/**
 * Authentication rules 1-2 of the connector: `{application}` must be the id of an Application
 * of a pre-registered integration (else 400) that called POST /connect (else 401).
 */
@Injectable()
export class ConnectedApplications {
  private readonly allowed: Set<string>;

  constructor(
    config: AppConfig,
    private readonly applications: ApplicationReader,
  ) {
    this.allowed = new Set(config.allowedApplications);
  }

  isAllowed(name: string): boolean {
    return this.allowed.has(name);
  }

  requireAllowed(name: string): void {
    if (!this.isAllowed(name)) throw new InvalidInput(`application ${name} is not a registered integration`);
  }

  /** The connected Application `id` names, inside the caller's transaction or read. */
  async require(em: EntityManager, id: unknown): Promise<ApplicationEntity> {
    if (typeof id !== 'string' || !isUUID(id)) {
      throw new InvalidInput('application must be the Application id (a UUID) returned by POST /connect');
    }
    const app = await this.applications.byId(em, id.toLowerCase());
    if (!app || !this.isAllowed(app.name)) throw new InvalidInput(`application ${id} is not a registered integration`);
    if (!app.connectedAt) throw new Unauthorized(`application ${id} has not connected: call POST /connect first`);
    return app;
  }
}
