import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../system/application.entity';

/**
 * What an integration reported: tracking events (POST /{application}/track, one row per
 * event kind sent) and reactions to suggestions (saved, reused, dismissed).
 */
@Entity('connector_events')
@Index('connector_events_application', ['applicationId', 'createdAt'])
@Index('connector_events_asset', ['assetId', 'createdAt'])
export class ConnectorEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'application_id', type: 'varchar', length: 36 })
  applicationId: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application: ApplicationEntity;

  /** The asset the event names, when it names one (not a foreign key: events outlive assets). */
  @Column({ name: 'asset_id', type: 'varchar', length: 36, nullable: true })
  assetId: string | null;

  /** track: format, asset, interaction, keyboard, session, ...; reaction: saved, reused, dismissed. */
  @Column({ type: 'varchar', length: 32 })
  kind: string;

  /** The event as sent (JSON), or null. */
  @Column({ type: 'text', nullable: true })
  payload: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
