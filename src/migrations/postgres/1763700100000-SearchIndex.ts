import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search index (owned by the search module, written in the same transaction as the asset):
 * documents with a weighted tsvector (GIN) and a pg_trgm GIN index over name + first part of
 * the text, tags, and the typo-correction vocabulary (C collation, so prefix ranges use the
 * B-tree). Assets that exist before this migration are indexed by SearchIndex at startup.
 */
export class SearchIndex1763700100000 implements MigrationInterface {
  name = 'SearchIndex1763700100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE TABLE "search_documents" ("asset_id" character varying(36) NOT NULL, "pseudo" boolean NOT NULL DEFAULT false, "name" text NOT NULL, "annotations" text NOT NULL, "content" text NOT NULL, "tags" text NOT NULL, "websites" text NOT NULL, "specifics" text NOT NULL, "created_at" character varying(30) NOT NULL, "updated_at" character varying(30) NOT NULL, "head" text NOT NULL, "doc" tsvector NOT NULL, CONSTRAINT "PK_search_documents" PRIMARY KEY ("asset_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "search_documents_doc" ON "search_documents" USING GIN ("doc")`);
    await queryRunner.query(`CREATE INDEX "search_documents_head" ON "search_documents" USING GIN ("head" gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX "search_documents_updated" ON "search_documents" ("updated_at")`);
    await queryRunner.query(
      `CREATE TABLE "search_tags" ("asset_id" character varying(36) NOT NULL, "tag" character varying(256) NOT NULL, CONSTRAINT "PK_search_tags" PRIMARY KEY ("tag", "asset_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "search_tags_asset" ON "search_tags" ("asset_id")`);
    await queryRunner.query(
      `CREATE TABLE "search_vocab" ("term" character varying(64) COLLATE "C" NOT NULL, "rev" character varying(64) COLLATE "C" NOT NULL, "len" integer NOT NULL, CONSTRAINT "PK_search_vocab" PRIMARY KEY ("term"))`,
    );
    await queryRunner.query(`CREATE INDEX "search_vocab_rev" ON "search_vocab" ("rev")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_vocab"`);
    await queryRunner.query(`DROP TABLE "search_tags"`);
    await queryRunner.query(`DROP TABLE "search_documents"`);
  }
}
