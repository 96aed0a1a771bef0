import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index (owned by the search module, written in the same transaction as the asset):
 * documents, an FTS5 word table, an FTS5 trigram table (both contentless with delete support),
 * the word table's vocabulary view, tags, and the typo-correction vocabulary.
 * Assets that exist before this migration are indexed by SearchIndex at startup.
 */
export class SearchIndex1763700100000 implements MigrationInterface {
  name = 'SearchIndex1763700100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "search_documents" ("doc_id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "asset_id" varchar(36) NOT NULL, "pseudo" boolean NOT NULL DEFAULT (0), "name" text NOT NULL, "annotations" text NOT NULL, "content" text NOT NULL, "tags" text NOT NULL, "websites" text NOT NULL, "specifics" text NOT NULL, "created_at" varchar(30) NOT NULL, "updated_at" varchar(30) NOT NULL, CONSTRAINT "search_documents_asset" UNIQUE ("asset_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "search_documents_updated" ON "search_documents" ("updated_at")`);
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "search_words" USING fts5(name, annotations, tags, websites, content, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2 tokenchars '_'")`,
    );
    await queryRunner.query(`CREATE VIRTUAL TABLE "search_words_vocab" USING fts5vocab(search_words, row)`);
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "search_trigrams" USING fts5(name, head, content='', contentless_delete=1, tokenize='trigram remove_diacritics 1')`,
    );
    await queryRunner.query(`CREATE TABLE "search_tags" ("asset_id" varchar(36) NOT NULL, "tag" varchar(256) NOT NULL, PRIMARY KEY ("tag", "asset_id"))`);
    await queryRunner.query(`CREATE INDEX "search_tags_asset" ON "search_tags" ("asset_id")`);
    await queryRunner.query(`CREATE TABLE "search_vocab" ("term" varchar(64) PRIMARY KEY NOT NULL, "rev" varchar(64) NOT NULL, "len" integer NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "search_vocab_rev" ON "search_vocab" ("rev")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_vocab"`);
    await queryRunner.query(`DROP TABLE "search_tags"`);
    await queryRunner.query(`DROP TABLE "search_trigrams"`);
    await queryRunner.query(`DROP TABLE "search_words_vocab"`);
    await queryRunner.query(`DROP TABLE "search_words"`);
    await queryRunner.query(`DROP TABLE "search_documents"`);
  }
}
