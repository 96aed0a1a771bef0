import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an application chose for its processing (CapabilitiesEnum: LOCAL, CLOUD, BLENDED), set by
 * POST /application/update (Obsidian's and Raycast's "cloud capabilities" setting) and read back
 * by GET /applications/{id}. Trove itself runs everything here whatever it says: LOCAL by default.
 */
export class ApplicationCapabilities1763702500000 implements MigrationInterface {
  name = 'ApplicationCapabilities1763702500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" ADD COLUMN "capabilities" varchar(16) NOT NULL DEFAULT ('LOCAL')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "capabilities"`);
  }
}
