import { MigrationInterface, QueryRunner } from 'typeorm';

/** An asset's tag ids in link order from the index alone (asset reads take only the ids). */
export class AssetTagsOrder1763701400000 implements MigrationInterface {
  name = 'AssetTagsOrder1763701400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "asset_tags_order" ON "asset_tags" ("asset_id", "created_at", "tag_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "asset_tags_order"`);
  }
}
