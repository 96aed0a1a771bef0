import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** An integration (editor plugin, CLI, ...) that created content or connected. */
@Entity('applications')
@Index('applications_identity', ['name', 'platform', 'version'], { unique: true })
export class ApplicationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 128 })
  version: string;

  @Column({ type: 'varchar', length: 16 })
  platform: string;

  @Column({ type: 'boolean', default: false })
  onboarded: boolean;

  @Column({ type: 'varchar', length: 16, default: 'OPEN' })
  privacy: string;

  /** CapabilitiesEnum the application chose (POST /application/update); Trove runs everything locally whatever it says. */
  @Column({ type: 'varchar', length: 16, default: 'LOCAL' })
  capabilities: string;

  /** Set when the application called POST /connect (null for one only seen in a seed). */
  @Column({ name: 'connected_at', type: 'varchar', length: 30, nullable: true })
  connectedAt: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;
}
