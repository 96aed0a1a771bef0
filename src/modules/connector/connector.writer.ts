import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../common/database/database.service';
import { ConnectorEventEntity } from './connector-event.entity';
import { IntentionEntity } from './intention.entity';

/** A row of connector_intentions (its application by id). */
export type IntentionRow = Omit<IntentionEntity, 'application'>;
/** A row of connector_events (its application by id). */
export type ConnectorEventRow = Omit<ConnectorEventEntity, 'application'>;

/** Every write of the connector's tables (connector_intentions, connector_events), inside the caller's transaction. */
@Injectable()
export class ConnectorWriter {
  constructor(private readonly db: Database) {}

  async intention(em: EntityManager, row: IntentionRow): Promise<void> {
    await this.db.insert(em, IntentionEntity, row);
  }

  /** One row per event, in the given order. */
  async events(em: EntityManager, rows: ConnectorEventRow[]): Promise<void> {
    for (const row of rows) await this.db.insert(em, ConnectorEventEntity, row);
  }
}
