import { MigrationInterface, QueryRunner } from 'typeorm';

/** What Trove generated for assets saved without a name, a description or tags (AssetEnrichmentEntity). */
export class AssetEnrichments1763701300000 implements MigrationInterface {
  name = 'AssetEnrichments1763701300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "asset_enrichments" ("asset_id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(1024), "description" text, "tags" text NOT NULL DEFAULT ('[]'), CONSTRAINT "FK_asset_enrichments_asset" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "asset_enrichments"`);
  }
}
