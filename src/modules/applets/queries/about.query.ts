import { HttpAdapterHost } from '@nestjs/core';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../../../common/config/app-config';
import { TROVE_VERSION } from '../../../version';
import { TroveAboutWire } from '../wire/about.wire';

/** Settings' "About": version, storage and Trove's own port (`GET /trove/about`). */
export class AboutQuery extends Query<TroveAboutWire> {}

@QueryHandler(AboutQuery)
export class AboutHandler implements IQueryHandler<AboutQuery> {
  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async execute(): Promise<TroveAboutWire> {
    const sqlite = this.config.dialect === 'sqlite';
    const size = async (path: string) => (await stat(path).catch(() => null))?.size ?? 0;
    const bytes = sqlite ? (await size(this.config.sqlitePath)) + (await size(`${this.config.sqlitePath}-wal`)) : null;
    const address = (this.adapterHost.httpAdapter.getHttpServer() as Server).address() as AddressInfo | null;
    return {
      version: TROVE_VERSION,
      storage: this.config.dialect,
      databasePath: sqlite ? this.config.sqlitePath : null,
      databaseBytes: bytes,
      dataDir: this.config.dataDir,
      port: address?.port ?? this.config.port,
      apiKeysRequired: this.config.apiKeys.length > 0,
    };
  }
}
