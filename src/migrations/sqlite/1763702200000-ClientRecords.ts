import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The records clients read and write as collections of their own (issue 42): an activity may be
 * about no asset (Obsidian reports its install: `POST /activities/create` without an asset), so
 * `activities.asset_id` becomes nullable (SQLite: the table is rebuilt, rows kept); and the
 * collections' keyset walks (most recent first, ties by id) get their indexes: activities,
 * annotations of assets and of conversations, conversation messages.
 */
export class ClientRecords1763702200000 implements MigrationInterface {
  name = 'ClientRecords1763702200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.rebuildActivities(queryRunner, true);
    await queryRunner.query(`CREATE INDEX "activities_listing" ON "activities" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "annotations_listing" ON "annotations" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "conversation_messages_listing" ON "conversation_messages" ("created_at", "id")`);
    await queryRunner.query(`CREATE INDEX "conversation_annotations_listing" ON "conversation_annotations" ("created_at", "id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "conversation_annotations_listing"`);
    await queryRunner.query(`DROP INDEX "conversation_messages_listing"`);
    await queryRunner.query(`DROP INDEX "annotations_listing"`);
    await queryRunner.query(`DROP INDEX "activities_listing"`);
    // The earlier shape keeps activities of assets only.
    await queryRunner.query(`DELETE FROM "activities" WHERE "asset_id" IS NULL`);
    await this.rebuildActivities(queryRunner, false);
  }

  private async rebuildActivities(queryRunner: QueryRunner, nullable: boolean): Promise<void> {
    const columns = `"id", "asset_id", "application_id", "event", "mechanism", "metadata", "created_at"`;
    await queryRunner.query(`DROP INDEX "activities_asset"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_activities" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36)${nullable ? '' : ' NOT NULL'}, "application_id" varchar(36) NOT NULL, "event" varchar(32) NOT NULL, "mechanism" varchar(16) NOT NULL, "metadata" text, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_f42d2b51975f14061024dbf2648" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_56d1e9b55491b561cc75e7a5665" FOREIGN KEY ("application_id") REFERENCES "applications" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(`INSERT INTO "temporary_activities"(${columns}) SELECT ${columns} FROM "activities"`);
    await queryRunner.query(`DROP TABLE "activities"`);
    await queryRunner.query(`ALTER TABLE "temporary_activities" RENAME TO "activities"`);
    await queryRunner.query(`CREATE INDEX "activities_asset" ON "activities" ("asset_id", "created_at") `);
  }
}
