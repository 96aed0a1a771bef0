import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Small per-installation values: the local user's id, preferences. */
@Entity('settings')
export class SettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'text' })
  value: string;
}
