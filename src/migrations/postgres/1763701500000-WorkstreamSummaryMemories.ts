import { MigrationInterface, QueryRunner } from 'typeorm';

/** A column as words: punctuation is a separator (paths and URLs split into their parts, as SQLite's unicode61 does). */
const words = (column: string) => `regexp_replace(coalesce("${column}", ''), '[[:punct:]]+', ' ', 'g')`;

/**
 * Workstream summaries become memories (WorkstreamSummaryEntity): a description, the text, the
 * project, files and links (JSON arrays), the application that saved it and a tombstone. The
 * full-text index is the generated tsvector `search` ('simple' configuration: no stemming, any
 * language), the name weighted highest (A), then the description (B), the text (C), and the
 * project, files and links (D), under a GIN index. Rows written before get it when the column is
 * added. A summary's asset links are found by an index on the summary's id.
 */
export class WorkstreamSummaryMemories1763701500000 implements MigrationInterface {
  name = 'WorkstreamSummaryMemories1763701500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "description" text`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "text" text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "project" character varying(1024)`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "files" text NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "links" text NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "source" character varying(256)`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD "deleted_at" character varying(30)`);
    await queryRunner.query(`CREATE INDEX "workstream_summaries_listing" ON "workstream_summaries" ("deleted_at", "created_at")`);
    await queryRunner.query(`CREATE INDEX "asset_workstream_summaries_summary" ON "asset_workstream_summaries" ("workstream_summary_id", "created_at")`);
    await queryRunner.query(
      `ALTER TABLE "workstream_summaries" ADD "search" tsvector GENERATED ALWAYS AS (
         setweight(to_tsvector('simple'::regconfig, ${words('name')}), 'A') ||
         setweight(to_tsvector('simple'::regconfig, ${words('description')}), 'B') ||
         setweight(to_tsvector('simple'::regconfig, ${words('text')}), 'C') ||
         setweight(to_tsvector('simple'::regconfig, ${words('project')} || ' ' || ${words('files')} || ' ' || ${words('links')}), 'D')
       ) STORED`,
    );
    await queryRunner.query(`CREATE INDEX "workstream_summaries_search" ON "workstream_summaries" USING GIN ("search")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "workstream_summaries_search"`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" DROP COLUMN "search"`);
    await queryRunner.query(`DROP INDEX "asset_workstream_summaries_summary"`);
    await queryRunner.query(`DROP INDEX "workstream_summaries_listing"`);
    for (const column of ['deleted_at', 'source', 'links', 'files', 'project', 'text', 'description']) {
      await queryRunner.query(`ALTER TABLE "workstream_summaries" DROP COLUMN "${column}"`);
    }
  }
}
