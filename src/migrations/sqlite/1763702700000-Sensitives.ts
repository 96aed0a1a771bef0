import { MigrationInterface, QueryRunner } from 'typeorm';

/** Secrets found in assets' texts (SensitiveEntity); dismissed ones kept by fingerprint. */
export class Sensitives1763702700000 implements MigrationInterface {
  name = 'Sensitives1763702700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sensitives" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36) NOT NULL, "rule" varchar(96) NOT NULL, "fingerprint" varchar(64) NOT NULL, "text" varchar(128) NOT NULL, "category" varchar(16) NOT NULL, "severity" varchar(16) NOT NULL, "name" varchar(128) NOT NULL, "description" text NOT NULL, "mechanism" varchar(16) NOT NULL, "match_start" integer NOT NULL, "match_end" integer NOT NULL, "entropy" real, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "dismissed_at" varchar(30), CONSTRAINT "FK_sensitives_asset" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(`CREATE INDEX "sensitives_asset" ON "sensitives" ("asset_id")`);
    await queryRunner.query(`CREATE INDEX "sensitives_listing" ON "sensitives" ("dismissed_at", "created_at", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sensitives"`);
  }
}
