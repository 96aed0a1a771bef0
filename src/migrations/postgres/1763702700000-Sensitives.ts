import { MigrationInterface, QueryRunner } from 'typeorm';

/** Secrets found in assets' texts (SensitiveEntity); dismissed ones kept by fingerprint. */
export class Sensitives1763702700000 implements MigrationInterface {
  name = 'Sensitives1763702700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sensitives" ("id" character varying(36) NOT NULL, "asset_id" character varying(36) NOT NULL, "rule" character varying(96) NOT NULL, "fingerprint" character varying(64) NOT NULL, "text" character varying(128) NOT NULL, "category" character varying(16) NOT NULL, "severity" character varying(16) NOT NULL, "name" character varying(128) NOT NULL, "description" text NOT NULL, "mechanism" character varying(16) NOT NULL, "match_start" integer NOT NULL, "match_end" integer NOT NULL, "entropy" real, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, "dismissed_at" character varying(30), CONSTRAINT "PK_sensitives" PRIMARY KEY ("id"), CONSTRAINT "FK_sensitives_asset" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(`CREATE INDEX "sensitives_asset" ON "sensitives" ("asset_id")`);
    await queryRunner.query(`CREATE INDEX "sensitives_listing" ON "sensitives" ("dismissed_at", "created_at", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sensitives"`);
  }
}
