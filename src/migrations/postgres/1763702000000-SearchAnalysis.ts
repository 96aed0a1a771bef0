import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which version of the text analysis (`indexText`: words, identifier parts, joined words) the
 * search index was written with, in the one row of `search_analysis`. An index written before
 * this table existed was written by version 1. When the code's version (ANALYSIS_VERSION,
 * search-index.service.ts) is newer, the search module re-indexes every live asset in the
 * background once the server has started, then records it, so a store saved by an older release
 * finds what a new one would.
 */
export class SearchAnalysis1763702000000 implements MigrationInterface {
  name = 'SearchAnalysis1763702000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "search_analysis" ("id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1), "version" integer NOT NULL)`);
    await queryRunner.query(`INSERT INTO "search_analysis" ("id", "version") VALUES (1, 1)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "search_analysis"`);
  }
}
