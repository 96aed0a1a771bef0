import { MigrationInterface, QueryRunner } from "typeorm";

/** Activities, workstream summaries (+ their links to assets) and per-kind score counters. */
export class AssetActivities1763700200000 implements MigrationInterface {
    name = 'AssetActivities1763700200000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "workstream_summaries" ("id" character varying(36) NOT NULL, "name" character varying(1024) NOT NULL, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_a7b5c1ad92a36a5e3dcf8b0ac3a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "asset_workstream_summaries" ("asset_id" character varying(36) NOT NULL, "workstream_summary_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_098d167b1d4081495c1e520082d" PRIMARY KEY ("asset_id", "workstream_summary_id"))`);
        await queryRunner.query(`CREATE TABLE "activities" ("id" character varying(36) NOT NULL, "asset_id" character varying(36) NOT NULL, "application_id" character varying(36) NOT NULL, "event" character varying(32) NOT NULL, "mechanism" character varying(16) NOT NULL, "metadata" text, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_7f4004429f731ffb9c88eb486a8" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "activities_asset" ON "activities" ("asset_id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "assets" ADD "score_reuse" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "assets" ADD "score_update" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "assets" ADD "score_reference" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "assets" ADD "score_priority" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "assets" ADD "score_searched" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "asset_workstream_summaries" ADD CONSTRAINT "FK_f8771e1518433713b7de6f00eaf" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "asset_workstream_summaries" ADD CONSTRAINT "FK_ad8128b36d15a671470ca73b31d" FOREIGN KEY ("workstream_summary_id") REFERENCES "workstream_summaries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "activities" ADD CONSTRAINT "FK_f42d2b51975f14061024dbf2648" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "activities" ADD CONSTRAINT "FK_56d1e9b55491b561cc75e7a5665" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "activities" DROP CONSTRAINT "FK_56d1e9b55491b561cc75e7a5665"`);
        await queryRunner.query(`ALTER TABLE "activities" DROP CONSTRAINT "FK_f42d2b51975f14061024dbf2648"`);
        await queryRunner.query(`ALTER TABLE "asset_workstream_summaries" DROP CONSTRAINT "FK_ad8128b36d15a671470ca73b31d"`);
        await queryRunner.query(`ALTER TABLE "asset_workstream_summaries" DROP CONSTRAINT "FK_f8771e1518433713b7de6f00eaf"`);
        await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "score_searched"`);
        await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "score_priority"`);
        await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "score_reference"`);
        await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "score_update"`);
        await queryRunner.query(`ALTER TABLE "assets" DROP COLUMN "score_reuse"`);
        await queryRunner.query(`DROP INDEX "public"."activities_asset"`);
        await queryRunner.query(`DROP TABLE "activities"`);
        await queryRunner.query(`DROP TABLE "asset_workstream_summaries"`);
        await queryRunner.query(`DROP TABLE "workstream_summaries"`);
    }

}
