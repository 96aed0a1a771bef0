import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Tag search answers "assets with this tag, most recently updated first": each tag row carries
 * its document's `pseudo` and `updated_at`, so an index walk of (tag, updated_at) answers it
 * without visiting every asset of a common tag.
 */
export class SearchTagsRecency1763700900000 implements MigrationInterface {
    name = 'SearchTagsRecency1763700900000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "search_tags" ADD COLUMN "pseudo" boolean NOT NULL DEFAULT (0)`);
        await queryRunner.query(`ALTER TABLE "search_tags" ADD COLUMN "updated_at" varchar(30) NOT NULL DEFAULT ('')`);
        await queryRunner.query(`UPDATE "search_tags" SET ("pseudo", "updated_at") = (SELECT d."pseudo", d."updated_at" FROM "search_documents" d WHERE d."asset_id" = "search_tags"."asset_id")`);
        await queryRunner.query(`CREATE INDEX "search_tags_recent" ON "search_tags" ("tag", "updated_at", "asset_id", "pseudo")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "search_tags_recent"`);
        await queryRunner.query(`ALTER TABLE "search_tags" DROP COLUMN "updated_at"`);
        await queryRunner.query(`ALTER TABLE "search_tags" DROP COLUMN "pseudo"`);
    }
}
