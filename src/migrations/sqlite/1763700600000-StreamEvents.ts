import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change-stream outbox: one row per change a stream reports, written in the change's own
 * transaction. AUTOINCREMENT: ids strictly increase and are never reused, even after pruning.
 */
export class StreamEvents1763700600000 implements MigrationInterface {
  name = 'StreamEvents1763700600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stream_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "topic" varchar(32) NOT NULL, "entity_id" varchar(64) NOT NULL, "deleted" boolean NOT NULL DEFAULT (0), "created_at" varchar(30) NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "stream_events_created_at" ON "stream_events" ("created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "stream_events_created_at"`);
    await queryRunner.query(`DROP TABLE "stream_events"`);
  }
}
