import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number of indexed documents, kept by triggers in the one row of `search_stats`: relevance
 * weighs terms by idf and asked `COUNT(*)` of `search_documents` on every request (22-45 ms at
 * a million assets, a walk of an index); reading the row is a lookup. The triggers run in the
 * transaction of the write that fires them, so the count is exact whenever it can be read.
 * (An upsert that updates an existing document fires no INSERT trigger: the count stays.)
 */
export class SearchDocumentCount1763701900000 implements MigrationInterface {
  name = 'SearchDocumentCount1763701900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "search_stats" ("id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1), "documents" integer NOT NULL)`);
    await queryRunner.query(`INSERT INTO "search_stats" ("id", "documents") SELECT 1, COUNT(*) FROM "search_documents"`);
    await queryRunner.query(`CREATE TRIGGER "search_documents_counted" AFTER INSERT ON "search_documents" BEGIN
            UPDATE "search_stats" SET "documents" = "documents" + 1 WHERE "id" = 1;
        END`);
    await queryRunner.query(`CREATE TRIGGER "search_documents_uncounted" AFTER DELETE ON "search_documents" BEGIN
            UPDATE "search_stats" SET "documents" = "documents" - 1 WHERE "id" = 1;
        END`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "search_documents_uncounted"`);
    await queryRunner.query(`DROP TRIGGER "search_documents_counted"`);
    await queryRunner.query(`DROP TABLE "search_stats"`);
  }
}
