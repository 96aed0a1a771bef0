import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A file or directory a conversation is anchored to (created from SeededConversation.anchors). */
@Entity('anchors')
export class AnchorEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** AnchorTypeEnum: UNKNOWN FILE DIRECTORY. */
  @Column({ type: 'varchar', length: 16 })
  type: string;

  @Column({ type: 'varchar', length: 4096 })
  fullpath: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  name: string | null;

  @Column({ type: 'boolean', default: false })
  watch: boolean;

  /** PlatformEnum of the path, when given. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  platform: string | null;

  @Column({ name: 'created_at', type: 'varchar', length: 30 })
  createdAt: string;

  @Column({ name: 'updated_at', type: 'varchar', length: 30 })
  updatedAt: string;
}
