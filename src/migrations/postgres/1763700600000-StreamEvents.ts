import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change-stream outbox: one row per change a stream reports, written in the change's own
 * transaction. Appends are serialised by a transaction-level advisory lock (see Outbox), so
 * ids become visible in increasing order.
 */
export class StreamEvents1763700600000 implements MigrationInterface {
  name = 'StreamEvents1763700600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stream_events" ("id" BIGSERIAL NOT NULL, "topic" character varying(32) NOT NULL, "entity_id" character varying(64) NOT NULL, "deleted" boolean NOT NULL DEFAULT false, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_stream_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "stream_events_created_at" ON "stream_events" ("created_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "stream_events_created_at"`);
    await queryRunner.query(`DROP TABLE "stream_events"`);
  }
}
