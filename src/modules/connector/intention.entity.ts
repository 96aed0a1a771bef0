import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApplicationEntity } from '../system/application.entity';

/** A snippet an integration sent with POST /{application}/intention, kept for later comparison. */
@Entity('connector_intentions')
@Index('connector_intentions_application', ['applicationId', 'createdAt'])
export class IntentionEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'application_id', type: 'varchar', length: 36 })
  applicationId: string;

  @ManyToOne(() => ApplicationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id' })
  application: ApplicationEntity;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  name: string | null;

  @Column({ type: 'text' })
  raw: string;

  /** `raw` normalised (lines trimmed, whitespace collapsed): what duplicates are compared on. */
  @Column({ type: 'text' })
  normalized: string;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
