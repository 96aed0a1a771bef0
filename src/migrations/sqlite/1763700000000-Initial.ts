import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1763700000000 implements MigrationInterface {
    name = 'Initial1763700000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "settings" ("key" varchar(64) PRIMARY KEY NOT NULL, "value" text NOT NULL)`);
        await queryRunner.query(`CREATE TABLE "annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36), "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE INDEX "annotations_asset" ON "annotations" ("asset_id") `);
        await queryRunner.query(`CREATE TABLE "applications" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(64) NOT NULL, "version" varchar(128) NOT NULL, "platform" varchar(16) NOT NULL, "onboarded" boolean NOT NULL DEFAULT (0), "privacy" varchar(16) NOT NULL DEFAULT ('OPEN'), "connected_at" varchar(30), "created_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE UNIQUE INDEX "applications_identity" ON "applications" ("name", "platform", "version") `);
        await queryRunner.query(`CREATE TABLE "formats" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36) NOT NULL, "position" integer NOT NULL DEFAULT (0), "role" varchar(16) NOT NULL, "generic" varchar(32) NOT NULL, "specific" varchar(32) NOT NULL, "application_id" varchar(36) NOT NULL, "creator" varchar(36) NOT NULL, "raw" text NOT NULL, "bytes" integer NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`CREATE INDEX "formats_asset" ON "formats" ("asset_id", "position") `);
        await queryRunner.query(`CREATE TABLE "assets" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(1024), "creator" varchar(36) NOT NULL, "mechanism" varchar(16) NOT NULL, "favorited" boolean NOT NULL DEFAULT (0), "pseudo" boolean NOT NULL DEFAULT (0), "score_manual" integer NOT NULL DEFAULT (0), "score_automatic" integer NOT NULL DEFAULT (0), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, "deleted_at" varchar(30))`);
        await queryRunner.query(`CREATE INDEX "assets_listing" ON "assets" ("deleted_at", "created_at") `);
        await queryRunner.query(`CREATE TABLE "tags" ("id" varchar(36) PRIMARY KEY NOT NULL, "text" varchar(256) NOT NULL, "category" varchar(16) NOT NULL DEFAULT ('UNKNOWN'), "mechanism" varchar(16) NOT NULL DEFAULT ('MANUAL'), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "UQ_9322ab4669053a42f2980c3f663" UNIQUE ("text"))`);
        await queryRunner.query(`CREATE TABLE "asset_tags" ("asset_id" varchar(36) NOT NULL, "tag_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("asset_id", "tag_id"))`);
        await queryRunner.query(`CREATE TABLE "websites" ("id" varchar(36) PRIMARY KEY NOT NULL, "url" varchar(2048) NOT NULL, "name" varchar(512) NOT NULL, "mechanism" varchar(16) NOT NULL DEFAULT ('MANUAL'), "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "UQ_a34249682ea550940f77969fd7b" UNIQUE ("url"))`);
        await queryRunner.query(`CREATE TABLE "asset_websites" ("asset_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("asset_id", "website_id"))`);
        await queryRunner.query(`DROP INDEX "annotations_asset"`);
        await queryRunner.query(`CREATE TABLE "temporary_annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36), "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "FK_f402106ca3827a7b89cbb05d682" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_annotations"("id", "asset_id", "type", "text", "mechanism", "created_at", "updated_at") SELECT "id", "asset_id", "type", "text", "mechanism", "created_at", "updated_at" FROM "annotations"`);
        await queryRunner.query(`DROP TABLE "annotations"`);
        await queryRunner.query(`ALTER TABLE "temporary_annotations" RENAME TO "annotations"`);
        await queryRunner.query(`CREATE INDEX "annotations_asset" ON "annotations" ("asset_id") `);
        await queryRunner.query(`DROP INDEX "formats_asset"`);
        await queryRunner.query(`CREATE TABLE "temporary_formats" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36) NOT NULL, "position" integer NOT NULL DEFAULT (0), "role" varchar(16) NOT NULL, "generic" varchar(32) NOT NULL, "specific" varchar(32) NOT NULL, "application_id" varchar(36) NOT NULL, "creator" varchar(36) NOT NULL, "raw" text NOT NULL, "bytes" integer NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "FK_a7a8bddaccf5f9eaa574ddcbb54" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_7187e0ac116998f8fceff8cb09e" FOREIGN KEY ("application_id") REFERENCES "applications" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)`);
        await queryRunner.query(`INSERT INTO "temporary_formats"("id", "asset_id", "position", "role", "generic", "specific", "application_id", "creator", "raw", "bytes", "created_at", "updated_at") SELECT "id", "asset_id", "position", "role", "generic", "specific", "application_id", "creator", "raw", "bytes", "created_at", "updated_at" FROM "formats"`);
        await queryRunner.query(`DROP TABLE "formats"`);
        await queryRunner.query(`ALTER TABLE "temporary_formats" RENAME TO "formats"`);
        await queryRunner.query(`CREATE INDEX "formats_asset" ON "formats" ("asset_id", "position") `);
        await queryRunner.query(`CREATE TABLE "temporary_asset_tags" ("asset_id" varchar(36) NOT NULL, "tag_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_3939f279ee836c0919e53ae9eb2" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_f14517531f289d57d93db54e1e7" FOREIGN KEY ("tag_id") REFERENCES "tags" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "tag_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_asset_tags"("asset_id", "tag_id", "created_at") SELECT "asset_id", "tag_id", "created_at" FROM "asset_tags"`);
        await queryRunner.query(`DROP TABLE "asset_tags"`);
        await queryRunner.query(`ALTER TABLE "temporary_asset_tags" RENAME TO "asset_tags"`);
        await queryRunner.query(`CREATE TABLE "temporary_asset_websites" ("asset_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, CONSTRAINT "FK_77a71fd4351285f88d47bb2a91f" FOREIGN KEY ("asset_id") REFERENCES "assets" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_497dad28eb84e8968e432c47bbb" FOREIGN KEY ("website_id") REFERENCES "websites" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("asset_id", "website_id"))`);
        await queryRunner.query(`INSERT INTO "temporary_asset_websites"("asset_id", "website_id", "created_at") SELECT "asset_id", "website_id", "created_at" FROM "asset_websites"`);
        await queryRunner.query(`DROP TABLE "asset_websites"`);
        await queryRunner.query(`ALTER TABLE "temporary_asset_websites" RENAME TO "asset_websites"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "asset_websites" RENAME TO "temporary_asset_websites"`);
        await queryRunner.query(`CREATE TABLE "asset_websites" ("asset_id" varchar(36) NOT NULL, "website_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("asset_id", "website_id"))`);
        await queryRunner.query(`INSERT INTO "asset_websites"("asset_id", "website_id", "created_at") SELECT "asset_id", "website_id", "created_at" FROM "temporary_asset_websites"`);
        await queryRunner.query(`DROP TABLE "temporary_asset_websites"`);
        await queryRunner.query(`ALTER TABLE "asset_tags" RENAME TO "temporary_asset_tags"`);
        await queryRunner.query(`CREATE TABLE "asset_tags" ("asset_id" varchar(36) NOT NULL, "tag_id" varchar(36) NOT NULL, "created_at" varchar(30) NOT NULL, PRIMARY KEY ("asset_id", "tag_id"))`);
        await queryRunner.query(`INSERT INTO "asset_tags"("asset_id", "tag_id", "created_at") SELECT "asset_id", "tag_id", "created_at" FROM "temporary_asset_tags"`);
        await queryRunner.query(`DROP TABLE "temporary_asset_tags"`);
        await queryRunner.query(`DROP INDEX "formats_asset"`);
        await queryRunner.query(`ALTER TABLE "formats" RENAME TO "temporary_formats"`);
        await queryRunner.query(`CREATE TABLE "formats" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36) NOT NULL, "position" integer NOT NULL DEFAULT (0), "role" varchar(16) NOT NULL, "generic" varchar(32) NOT NULL, "specific" varchar(32) NOT NULL, "application_id" varchar(36) NOT NULL, "creator" varchar(36) NOT NULL, "raw" text NOT NULL, "bytes" integer NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`INSERT INTO "formats"("id", "asset_id", "position", "role", "generic", "specific", "application_id", "creator", "raw", "bytes", "created_at", "updated_at") SELECT "id", "asset_id", "position", "role", "generic", "specific", "application_id", "creator", "raw", "bytes", "created_at", "updated_at" FROM "temporary_formats"`);
        await queryRunner.query(`DROP TABLE "temporary_formats"`);
        await queryRunner.query(`CREATE INDEX "formats_asset" ON "formats" ("asset_id", "position") `);
        await queryRunner.query(`DROP INDEX "annotations_asset"`);
        await queryRunner.query(`ALTER TABLE "annotations" RENAME TO "temporary_annotations"`);
        await queryRunner.query(`CREATE TABLE "annotations" ("id" varchar(36) PRIMARY KEY NOT NULL, "asset_id" varchar(36), "type" varchar(16) NOT NULL, "text" text NOT NULL, "mechanism" varchar(16) NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL)`);
        await queryRunner.query(`INSERT INTO "annotations"("id", "asset_id", "type", "text", "mechanism", "created_at", "updated_at") SELECT "id", "asset_id", "type", "text", "mechanism", "created_at", "updated_at" FROM "temporary_annotations"`);
        await queryRunner.query(`DROP TABLE "temporary_annotations"`);
        await queryRunner.query(`CREATE INDEX "annotations_asset" ON "annotations" ("asset_id") `);
        await queryRunner.query(`DROP TABLE "asset_websites"`);
        await queryRunner.query(`DROP TABLE "websites"`);
        await queryRunner.query(`DROP TABLE "asset_tags"`);
        await queryRunner.query(`DROP TABLE "tags"`);
        await queryRunner.query(`DROP INDEX "assets_listing"`);
        await queryRunner.query(`DROP TABLE "assets"`);
        await queryRunner.query(`DROP INDEX "formats_asset"`);
        await queryRunner.query(`DROP TABLE "formats"`);
        await queryRunner.query(`DROP INDEX "applications_identity"`);
        await queryRunner.query(`DROP TABLE "applications"`);
        await queryRunner.query(`DROP INDEX "annotations_asset"`);
        await queryRunner.query(`DROP TABLE "annotations"`);
        await queryRunner.query(`DROP TABLE "settings"`);
    }

}
