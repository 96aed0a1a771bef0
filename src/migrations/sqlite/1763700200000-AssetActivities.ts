import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Activities, workstream summaries (+ their links to assets) and per-kind score counters.
 * Written by hand: new tables are created with their foreign keys at once, and the score
 * columns are added with ALTER TABLE (no table rebuild, so no cascade through `assets`).
 */
export class AssetActivities1763700200000 implements MigrationInterface {
    name = 'AssetActivities1763700200000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "workstream_summaries" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(1024) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE TABLE "asset_workstream_summaries" ("asset_id" varchar(36) NOT NULL, "workstream_summary_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_f8771e1518433713b7de6f00eaf" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_ad8128b36d15a671470ca73b31d" FOREIGN KEY ("workstream_summary_id") REFERENCES "workstream_summaries" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "workstream_summary_id"))`);
        await queryRunner.query(`CREATE TABLE "activities" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36) NOT NULL, "application_id" varchar(36) NOT NULL, "event" varchar(32) NOT NULL, "mechanism" varchar(16) NOT NULL, "metadata" text, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_f42d2b51975f14061024dbf2648" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_56d1e9b55491b561cc75e7a5665" FOREIGN KEY ("application_id") REFERENCES "applications" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
        await queryRunner.query(`CREATE INDEX "activities_asset" ON "activities" ("asset_id", "created_at") `);
        for (const column of ['score_reuse', 'score_update', 'score_reference', 'score_priority', 'score_searched']) {
            await queryRunner.query(`ALTER TABLE "assets" ADD COLUMN "${column}" integer NOT NULL DEFAULT (0)`);
        }
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        for (const column of ['score_searched', 'score_priority', 'score_reference', 'score_update', 'score_reuse']) {
            await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "${column}"`);
        }
        await queryRunner.query(`DROP INDEX "activities_asset"`);
        await queryRunner.query(`DROP TABLE "activities"`);
        await queryRunner.query(`DROP TABLE "asset_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "workstream_summaries"`);
    }

}
