import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The records clients read and write as collections of their own (issue 42): an activity may be
 * about no asset (Obsidian reports its install), so `activities.asset_id` becomes nullable; and
 * the collections' keyset walks (most recent first, ties by id) get their indexes: activities,
 * annotations of assets and of conversations, conversation messages.
 */
export class ClientRecords1763702200000 implements MigrationInterface {
  name = 'ClientRecords1763702200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activities" ALTER COLUMN "asset_id" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "activities_listing" ON "activities" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "annotations_listing" ON "annotations" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "conversation_messages_listing" ON "conversation_messages" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "conversation_annotations_listing" ON "conversation_annotations" ("created_at", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."conversation_annotations_listing"`);
    await queryRunner.query(`DROP INDEX "public"."conversation_messages_listing"`);
    await queryRunner.query(`DROP INDEX "public"."annotations_listing"`);
    await queryRunner.query(`DROP INDEX "public"."activities_listing"`);
    await queryRunner.query(`DELETE FROM "activities" WHERE "asset_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "activities" ALTER COLUMN "asset_id" SET NOT NULL`);
  }
}
