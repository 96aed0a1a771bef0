import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1763700000000 implements MigrationInterface {
    name = 'Initial1763700000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "settings" ("key" character varying(64) NOT NULL, "value" text NOT NULL, CONSTRAINT "PK_c8639b7626fa94ba8265628f214" PRIMARY KEY ("key"))`);
        await queryRunner.query(`CREATE TABLE "applications" ("id" character varying(36) NOT NULL, "name" character varying(64) NOT NULL, "version" character varying(128) NOT NULL, "platform" character varying(16) NOT NULL, "onboarded" boolean NOT NULL DEFAULT false, "privacy" character varying(16) NOT NULL DEFAULT 'OPEN', "connected_at" character varying(30), "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_938c0a27255637bde919591888f" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "applications_identity" ON "applications" ("name", "platform", "version") `);
        await queryRunner.query(`CREATE TABLE "annotations" ("id" character varying(36) NOT NULL, "asset_id" character varying(36), "type" character varying(16) NOT NULL, "text" text NOT NULL, "mechanism" character varying(16) NOT NULL, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_d5b59b40ef7ee54b4309c2e89b2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "annotations_asset" ON "annotations" ("asset_id") `);
        await queryRunner.query(`CREATE TABLE "formats" ("id" character varying(36) NOT NULL, "asset_id" character varying(36) NOT NULL, "position" integer NOT NULL DEFAULT '0', "role" character varying(16) NOT NULL, "generic" character varying(32) NOT NULL, "specific" character varying(32) NOT NULL, "application_id" character varying(36) NOT NULL, "creator" character varying(36) NOT NULL, "raw" text NOT NULL, "bytes" integer NOT NULL, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "PK_e99e1793fec9a30a4b463b46869" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "formats_asset" ON "formats" ("asset_id", "position") `);
        await queryRunner.query(`CREATE TABLE "assets" ("id" character varying(36) NOT NULL, "name" character varying(1024), "creator" character varying(36) NOT NULL, "mechanism" character varying(16) NOT NULL, "favorited" boolean NOT NULL DEFAULT false, "pseudo" boolean NOT NULL DEFAULT false, "score_manual" integer NOT NULL DEFAULT '0', "score_automatic" integer NOT NULL DEFAULT '0', "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, "deleted_at" character varying(30), CONSTRAINT "PK_da96729a8b113377cfb6a62439c" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "assets_listing" ON "assets" ("deleted_at", "created_at") `);
        await queryRunner.query(`CREATE TABLE "websites" ("id" character varying(36) NOT NULL, "url" character varying(2048) NOT NULL, "name" character varying(512) NOT NULL, "mechanism" character varying(16) NOT NULL DEFAULT 'MANUAL', "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "UQ_a34249682ea550940f77969fd7b" UNIQUE ("url"), CONSTRAINT "PK_da80e50ae0d986d43c9eb80ab70" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "asset_websites" ("asset_id" character varying(36) NOT NULL, "website_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_4cb6128d3a4fb62b7fa4d183587" PRIMARY KEY ("asset_id", "website_id"))`);
        await queryRunner.query(`CREATE TABLE "tags" ("id" character varying(36) NOT NULL, "text" character varying(256) NOT NULL, "category" character varying(16) NOT NULL DEFAULT 'UNKNOWN', "mechanism" character varying(16) NOT NULL DEFAULT 'MANUAL', "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, CONSTRAINT "UQ_9322ab4669053a42f2980c3f663" UNIQUE ("text"), CONSTRAINT "PK_e7dc17249a1148a1970748eda99" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "asset_tags" ("asset_id" character varying(36) NOT NULL, "tag_id" character varying(36) NOT NULL, "created_at" character varying(30) NOT NULL, CONSTRAINT "PK_03784814f42ef3c91c92fb10bed" PRIMARY KEY ("asset_id", "tag_id"))`);
        await queryRunner.query(`ALTER TABLE "annotations" ADD CONSTRAINT "FK_f402106ca3827a7b89cbb05d682" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "formats" ADD CONSTRAINT "FK_a7a8bddaccf5f9eaa574ddcbb54" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "formats" ADD CONSTRAINT "FK_7187e0ac116998f8fceff8cb09e" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "asset_websites" ADD CONSTRAINT "FK_77a71fd4351285f88d47bb2a91f" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "asset_websites" ADD CONSTRAINT "FK_497dad28eb84e8968e432c47bbb" FOREIGN KEY ("website_id") REFERENCES "websites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "asset_tags" ADD CONSTRAINT "FK_3939f279ee836c0919e53ae9eb2" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "asset_tags" ADD CONSTRAINT "FK_f14517531f289d57d93db54e1e7" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "asset_tags" DROP CONSTRAINT "FK_f14517531f289d57d93db54e1e7"`);
        await queryRunner.query(`ALTER TABLE "asset_tags" DROP CONSTRAINT "FK_3939f279ee836c0919e53ae9eb2"`);
        await queryRunner.query(`ALTER TABLE "asset_websites" DROP CONSTRAINT "FK_497dad28eb84e8968e432c47bbb"`);
        await queryRunner.query(`ALTER TABLE "asset_websites" DROP CONSTRAINT "FK_77a71fd4351285f88d47bb2a91f"`);
        await queryRunner.query(`ALTER TABLE "formats" DROP CONSTRAINT "FK_7187e0ac116998f8fceff8cb09e"`);
        await queryRunner.query(`ALTER TABLE "formats" DROP CONSTRAINT "FK_a7a8bddaccf5f9eaa574ddcbb54"`);
        await queryRunner.query(`ALTER TABLE "annotations" DROP CONSTRAINT "FK_f402106ca3827a7b89cbb05d682"`);
        await queryRunner.query(`DROP TABLE "asset_tags"`);
        await queryRunner.query(`DROP TABLE "tags"`);
        await queryRunner.query(`DROP TABLE "asset_websites"`);
        await queryRunner.query(`DROP TABLE "websites"`);
        await queryRunner.query(`DROP INDEX "public"."assets_listing"`);
        await queryRunner.query(`DROP TABLE "assets"`);
        await queryRunner.query(`DROP INDEX "public"."formats_asset"`);
        await queryRunner.query(`DROP TABLE "formats"`);
        await queryRunner.query(`DROP INDEX "public"."annotations_asset"`);
        await queryRunner.query(`DROP TABLE "annotations"`);
        await queryRunner.query(`DROP INDEX "public"."applications_identity"`);
        await queryRunner.query(`DROP TABLE "applications"`);
        await queryRunner.query(`DROP TABLE "settings"`);
    }

}
