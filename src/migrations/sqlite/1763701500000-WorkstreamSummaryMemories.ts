import { MigrationInterface, QueryRunner } from 'typeorm';

const FTS_COLUMNS = ['name', 'description', 'text', 'project', 'files', 'links'];
const values = (prefix: string) => FTS_COLUMNS.map((c) => `${prefix}."${c}"`).join(', ');
const columns = FTS_COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * Workstream summaries become memories (WorkstreamSummaryEntity): a description, the text, the
 * project, files and links (JSON arrays), the application that saved it and a tombstone. The
 * full-text index `workstream_summaries_fts` is FTS5 with external content on the summaries'
 * rowid, kept in step by triggers; rows written before are indexed by the 'rebuild' (a later
 * migration that rebuilds the table, and so its rowids, must run that 'rebuild' again). A
 * summary's asset links are found by an index on the summary's id.
 */
export class WorkstreamSummaryMemories1763701500000 implements MigrationInterface {
  name = 'WorkstreamSummaryMemories1763701500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "description" text`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "text" text NOT NULL DEFAULT ('')`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "project" varchar(1024)`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "files" text NOT NULL DEFAULT ('[]')`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "links" text NOT NULL DEFAULT ('[]')`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "source" varchar(256)`);
    await queryRunner.query(`ALTER TABLE "workstream_summaries" ADD COLUMN "deleted_at" varchar(30)`);
    await queryRunner.query(`CREATE INDEX "workstream_summaries_listing" ON "workstream_summaries" ("deleted_at", "created_at")`);
    await queryRunner.query(`CREATE INDEX "asset_workstream_summaries_summary" ON "asset_workstream_summaries" ("workstream_summary_id", "created_at")`);
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "workstream_summaries_fts" USING fts5(${columns}, content='workstream_summaries', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "workstream_summaries_fts_insert" AFTER INSERT ON "workstream_summaries" BEGIN
         INSERT INTO "workstream_summaries_fts" (rowid, ${columns}) VALUES (new.rowid, ${values('new')});
       END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "workstream_summaries_fts_delete" AFTER DELETE ON "workstream_summaries" BEGIN
         INSERT INTO "workstream_summaries_fts" ("workstream_summaries_fts", rowid, ${columns}) VALUES ('delete', old.rowid, ${values('old')});
       END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "workstream_summaries_fts_update" AFTER UPDATE ON "workstream_summaries" BEGIN
         INSERT INTO "workstream_summaries_fts" ("workstream_summaries_fts", rowid, ${columns}) VALUES ('delete', old.rowid, ${values('old')});
         INSERT INTO "workstream_summaries_fts" (rowid, ${columns}) VALUES (new.rowid, ${values('new')});
       END`,
    );
    await queryRunner.query(`INSERT INTO "workstream_summaries_fts" ("workstream_summaries_fts") VALUES ('rebuild')`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "workstream_summaries_fts_update"`);
    await queryRunner.query(`DROP TRIGGER "workstream_summaries_fts_delete"`);
    await queryRunner.query(`DROP TRIGGER "workstream_summaries_fts_insert"`);
    await queryRunner.query(`DROP TABLE "workstream_summaries_fts"`);
    await queryRunner.query(`DROP INDEX "asset_workstream_summaries_summary"`);
    await queryRunner.query(`DROP INDEX "workstream_summaries_listing"`);
    for (const column of ['deleted_at', 'source', 'links', 'files', 'project', 'text', 'description']) {
      await queryRunner.query(`ALTER TABLE "workstream_summaries" DROP COLUMN "${column}"`);
    }
  }
}
